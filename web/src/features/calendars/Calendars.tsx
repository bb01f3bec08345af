import './calendars.css';
import { CalendarOutlined, ReloadOutlined, SwapOutlined, TeamOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Pilot, Trip } from '@crewswap/proto';
import { errorMessage } from '../../api/client';
import { NEEDS_CONNECTION, useOnline } from '../../api/online';
import { queryKeys } from '../../api/keys';
import { useSetting } from '../../api/settings';
import { AppModal } from '../../shared/AppModal';
import { NotAvailable } from '../../shared/NotAvailable';
import { PageLoading } from '../../shared/PageLoading';
import { CrossoverCalendar } from './CrossoverCalendar';
import { MasterCalendar } from './MasterCalendar';
import { SwapCalendar } from './SwapCalendar';

type View = 'choose' | 'swap' | 'master' | 'crossover' | 'not-available';

const TITLES = { swap: 'Swap Calendar', master: 'Master Calendar', crossover: 'Crossover Calendar' } as const;

interface Props {
  pilot: Pilot;
  /** The pilot's own trips; undefined while they load (or when loading them failed, with `tripsError`). */
  trips: readonly Trip[] | undefined;
  tripsError?: Error | null;
  onClose: () => void;
}

/** The header's Calendars button: Choose Calendar View, then the Swap, Master or Crossover Calendar. */
export default function Calendars({ pilot, trips, tripsError, onClose }: Props) {
  const [view, setView] = useState<View>('choose');
  const [unavailable, setUnavailable] = useState<'master' | 'crossover'>('master');
  const queryClient = useQueryClient();
  // Offline the calendars show what was kept; asking again needs the server, and is never queued.
  const online = useOnline();

  const choose = (next: 'swap' | 'master' | 'crossover') => {
    // Master Roster OFF loses the Master and Crossover Calendars (pilot spec section 6).
    if (next !== 'swap' && !pilot.usualReq) {
      setUnavailable(next);
      setView('not-available');
      return;
    }
    setView(next);
  };

  if (view === 'choose') {
    return (
      <AppModal title="Choose Calendar View" onCancel={onClose} width={420}>
        <div className="calendar-choices">
          <Button size="large" block icon={<CalendarOutlined />} onClick={() => choose('master')}>
            Master Calendar
          </Button>
          <Button size="large" block icon={<TeamOutlined />} onClick={() => choose('crossover')}>
            Crossover Calendar
          </Button>
          <Button size="large" block icon={<SwapOutlined />} onClick={() => choose('swap')}>
            Swap Calendar
          </Button>
        </div>
      </AppModal>
    );
  }
  if (view === 'not-available') return <NotAvailable feature={TITLES[unavailable]} onClose={onClose} />;
  // Only trips known to be none ask for the roster: a pilot who taps before theirs have loaded waits for them.
  if (view === 'master' && trips?.length === 0) return <NoTripsNotice onClose={onClose} />;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: view === 'master' ? queryKeys.masterCalendar(pilot.rank, pilot.fleet) : view === 'crossover' ? queryKeys.crossoverTrips : ['calendar-matches'] });
  };
  return (
    <AppModal
      title={TITLES[view]}
      onCancel={onClose}
      width="min(1200px, 96vw)"
      className="calendar-modal"
      extra={
        <Button icon={<ReloadOutlined />} onClick={refresh} disabled={!online} title={online ? undefined : NEEDS_CONNECTION}>
          Refresh
        </Button>
      }
    >
      {trips === undefined ? (
        <TripsPending error={tripsError} />
      ) : (
        <>
          {view === 'master' && <MasterCalendar pilot={pilot} trips={trips} />}
          {view === 'crossover' && <CrossoverCalendar pilot={pilot} trips={trips} />}
          {view === 'swap' && <SwapCalendar pilot={pilot} trips={trips} />}
        </>
      )}
    </AppModal>
  );
}

/** Every calendar shows the pilot's own trips: until they are known it says so, or why they are not. */
function TripsPending({ error }: { error: Error | null | undefined }) {
  if (error) return <Alert type="error" showIcon title={`Failed to load trips: ${errorMessage(error)}`} />;
  return <PageLoading text="Loading your trips..." />;
}

/** The Master Calendar needs the pilot's own trips: it asks for the roster and closes. */
function NoTripsNotice({ onClose }: { onClose: () => void }) {
  const uploadEmail = useSetting('upload_email').data;
  return (
    <AppModal title="Roster Needed" onCancel={onClose} onOk={onClose} okText="OK" cancelButtonProps={{ style: { display: 'none' } }} width={420}>
      <p>You have no trips yet, so the Master Calendar cannot show your row.</p>
      <p>
        Email your roster calendar file from your company email account to {uploadEmail ? <strong>{uploadEmail}</strong> : 'the roster upload address'}, or
        upload it with Upload Roster, then open the Master Calendar again.
      </p>
    </AppModal>
  );
}
