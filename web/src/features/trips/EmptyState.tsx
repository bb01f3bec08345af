import { BellOutlined, CloudUploadOutlined, PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense } from 'react';
import { useSetting } from '../../api/settings';
import { usePilotStats } from '../../api/trips';

// Loaded apart: its copy and confirm widgets would push the first page past its size budget.
const PrivateUploadAddress = lazy(() => import('../roster/PrivateUploadAddress').then((module) => ({ default: module.PrivateUploadAddress })));

/** No trips yet: the three steps of pilot spec section 1; the bell, support and roster steps open their dialogs. */
interface Props {
  onAddTrip: () => void;
  onUploadRoster: () => void;
  onNotifications: () => void;
  onTechSupport?: () => void;
}

export function EmptyState({ onAddTrip, onUploadRoster, onNotifications, onTechSupport }: Props) {
  const uploadEmail = useSetting('upload_email').data;
  const community = usePilotStats().data?.community;
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <h2 id="empty-title">No trips yet</h2>
      <p>Get started in three steps:</p>
      <ol className="steps">
        <li>
          <Button type="link" className="inline-link" onClick={onNotifications}>
            <strong>Enable push notifications</strong>
          </Button>{' '}
          with the bell <BellOutlined aria-label="bell" /> at the top of the page, so you hear about new swap offers.
        </li>
        <li>
          {onTechSupport ? (
            <Button type="link" className="inline-link" onClick={onTechSupport}>
              <strong>Join the tech support group</strong>
            </Button>
          ) : (
            <strong>Join the tech support group</strong>
          )}{' '}
          on WhatsApp for help and news about the app.
        </li>
        <li>
          <Button type="link" className="inline-link" onClick={onUploadRoster}>
            <strong>Upload your roster</strong>
          </Button>
          : choose your calendar file (.ics), or email it from your company email account to{' '}
          {uploadEmail ? <strong>{uploadEmail}</strong> : 'the roster upload address'}. You can also add trips by hand with Add Trip.
          <Suspense fallback={null}>
            <PrivateUploadAddress />
          </Suspense>
        </li>
      </ol>
      <div className="empty-actions">
        <Button size="large" icon={<CloudUploadOutlined />} onClick={onUploadRoster}>
          Upload roster
        </Button>
        <Button type="primary" size="large" icon={<PlusOutlined />} onClick={onAddTrip}>
          Add a trip
        </Button>
      </div>
      <h3>About rosters</h3>
      <ul>
        <li>Only trips and standby duties are imported; days off, leave and ground duties are skipped.</li>
        <li>Trips already in your list are skipped, so sending the same roster twice is safe.</li>
        <li>Trips that ended more than 7 days ago are removed every day.</li>
        {community && (
          <li>
            {community.masterRosterPilots} pilots share their roster here, with {community.offeredTrips} trips offered for swap.
          </li>
        )}
      </ul>
    </section>
  );
}
