import { Select, Switch } from 'antd';
import type { ReactNode } from 'react';
import type { NotificationPreferences, UpdateNotificationPreferencesBody } from '@crewswap/proto';
import { PrefRow } from './PrefRow';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const TIMES = HOURS.flatMap((hour) => ['00', '30'].map((minutes) => `${String(hour).padStart(2, '0')}:${minutes}`));
const DEFAULT_QUIET = { start: '22:00', end: '07:00' };
const DEFAULT_DIGEST_HOUR = 7;

/** The browser's own time zone: quiet hours and the digest keep the pilot's clock wherever they fly from. */
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/London';

/**
 * Issue 39's settings under the switches: urgent offers through quiet hours, quiet hours
 * themselves and the daily digest. Each change saves only its own field.
 */
export function AlertSettings({ prefs, change }: { prefs: NotificationPreferences; change: (body: UpdateNotificationPreferencesBody) => void }) {
  const quiet = prefs.quietHours;
  const digest = prefs.digest;
  const timeOptions = TIMES.map((time) => ({ value: time, label: time }));
  const rows: { id: string; title: string; text: string; on: boolean; toggle: (on: boolean) => void; more?: ReactNode }[] = [
    {
      id: 'pref-quiet',
      title: 'Quiet Hours',
      text: `Alerts wait until quiet hours end, then arrive as one. Times are in ${quiet?.timeZone ?? browserTimeZone()}.`,
      on: quiet !== null,
      toggle: (on) => change({ quietHours: on ? { ...DEFAULT_QUIET, timeZone: browserTimeZone() } : null }),
      more: quiet && (
        <div className="pref-times">
          <Select aria-label="Quiet hours start" size="small" value={quiet.start} options={timeOptions} onChange={(start) => change({ quietHours: { ...quiet, start, timeZone: browserTimeZone() } })} />
          <span>to</span>
          <Select aria-label="Quiet hours end" size="small" value={quiet.end} options={timeOptions} onChange={(end) => change({ quietHours: { ...quiet, end, timeZone: browserTimeZone() } })} />
        </div>
      ),
    },
    {
      id: 'pref-urgent',
      title: 'Urgent Offers',
      text: 'Offers starting within 48 hours reach you at once, even in quiet hours.',
      on: prefs.urgent,
      toggle: (urgent) => change({ urgent }),
    },
    {
      id: 'pref-digest',
      title: 'Daily Digest',
      text: 'One email a day with new offers for your trips and wishes.',
      on: digest !== null,
      toggle: (on) => change({ digest: on ? { hour: DEFAULT_DIGEST_HOUR, timeZone: browserTimeZone() } : null }),
      more: digest && (
        <div className="pref-times">
          <span>Send at</span>
          <Select
            aria-label="Digest hour"
            size="small"
            value={digest.hour}
            options={HOURS.map((hour) => ({ value: hour, label: `${String(hour).padStart(2, '0')}:00` }))}
            onChange={(hour) => change({ digest: { hour, timeZone: browserTimeZone() } })}
          />
        </div>
      ),
    },
  ];
  return rows.map(({ id, title, text, on, toggle, more }) => (
    <PrefRow key={id} id={id} title={title} text={text} control={<Switch aria-labelledby={`${id}-label`} checked={on} onChange={toggle} />}>
      {more}
    </PrefRow>
  ));
}
