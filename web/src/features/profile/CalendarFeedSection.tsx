import './profile.css';
import { CopyOutlined } from '@ant-design/icons';
import { Button, Popconfirm, QRCode, Typography } from 'antd';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { useCalendarFeed, useRotateCalendarFeed, useTurnOffCalendarFeed } from '../../api/calendarFeed';
import { copyText } from '../crew/copy';

/**
 * The feed's addresses: webcal:// (Apple Calendar and most phones subscribe from it), its https://
 * twin for calendar apps that take only https (http:// on a local stack, as the page is served),
 * and Google Calendar's add-by-URL page.
 */
export function feedAddresses(webcal: string, pageProtocol = window.location.protocol) {
  const https = webcal.replace(/^webcal:/, pageProtocol === 'http:' ? 'http:' : 'https:');
  return { webcal, https, google: `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}` };
}

/**
 * Calendar feed (in Edit My Details, loaded with its QR code only when the dialog opens): a
 * private webcal address with the pilot's upcoming trips. Only its hash is kept on the server,
 * so the address is shown once, when it is made; later a new one can be made (Rotate).
 */
export default function CalendarFeedSection() {
  const status = useCalendarFeed();
  const rotate = useRotateCalendarFeed();
  const turnOff = useTurnOffCalendarFeed();
  const [url, setUrl] = useState<string | null>(null);
  const enabled = status.data?.enabled ?? false;
  const failed = rotate.error ?? turnOff.error ?? status.error;

  const makeAddress = () => rotate.mutateAsync().then(setUrl);
  const stop = () => turnOff.mutateAsync().then(() => setUrl(null));

  return (
    <section className="calendar-feed" aria-labelledby="calendar-feed-title">
      <Typography.Title level={5} id="calendar-feed-title">
        Calendar feed
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Your upcoming trips in your phone’s calendar, kept up to date, with each trip’s swap state. The address is private: anyone who has it can see your trips.
      </Typography.Paragraph>
      {status.isPending ? null : !enabled ? (
        <Button type="primary" loading={rotate.isPending} onClick={() => void makeAddress()}>
          Turn On
        </Button>
      ) : (
        <>
          {url ? (
            <FeedAddress url={url} />
          ) : (
            <Typography.Paragraph>
              Your calendar feed is on. Its address is shown only when it is made: to add it to another calendar, rotate it and subscribe again with the new address.
            </Typography.Paragraph>
          )}
          <div className="qr-actions calendar-feed-actions">
            <Popconfirm
              title="Rotate your calendar feed address?"
              description="The current address stops working at once: calendars subscribed to it stop updating."
              okText="Rotate"
              cancelText="Cancel"
              onConfirm={makeAddress}
            >
              <Button loading={rotate.isPending}>Rotate</Button>
            </Popconfirm>
            <Popconfirm
              title="Turn off your calendar feed?"
              description="Its address stops working at once."
              okText="Turn Off"
              okButtonProps={{ danger: true }}
              cancelText="Cancel"
              onConfirm={stop}
            >
              <Button danger loading={turnOff.isPending}>
                Turn Off
              </Button>
            </Popconfirm>
          </div>
        </>
      )}
      {failed && <Typography.Text type="danger">{errorMessage(failed)}</Typography.Text>}
    </section>
  );
}

function FeedAddress({ url }: { url: string }) {
  const { webcal, https, google } = feedAddresses(url);
  return (
    <div className="calendar-feed-address">
      <QRCode value={webcal} size={160} errorLevel="M" aria-label="QR code of your calendar feed address" className="qr-code" />
      <div className="calendar-feed-text">
        <Typography.Text className="qr-link">{webcal}</Typography.Text>
        <Typography.Paragraph type="secondary">Scan it with your phone’s camera, or copy it into your calendar app (Add subscription / From URL).</Typography.Paragraph>
        <div className="qr-actions">
          <Button icon={<CopyOutlined />} onClick={() => void copyText(webcal, 'Address copied')}>
            Copy
          </Button>
          <Button href={webcal}>Add to Apple Calendar</Button>
          <Button href={google} target="_blank" rel="noreferrer">
            Add to Google Calendar
          </Button>
        </div>
        <Typography.Paragraph type="secondary">Some calendar apps take only an https address:</Typography.Paragraph>
        <Typography.Text className="calendar-feed-https">{https}</Typography.Text>
        <div className="qr-actions">
          <Button icon={<CopyOutlined />} onClick={() => void copyText(https, 'Address copied')}>
            Copy https Address
          </Button>
        </div>
      </div>
    </div>
  );
}
