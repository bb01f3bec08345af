import { Select, Switch } from 'antd';
import type { NotificationPreferences, UpdateNotificationPreferencesBody } from '@crewswap/proto';

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
  return (
    <>
      <div className="pref-row">
        <div>
          <div id="pref-quiet-label" className="pref-title">
            Quiet Hours
          </div>
          <div className="pref-text">Alerts wait until quiet hours end, then arrive as one. Times are in {quiet?.timeZone ?? browserTimeZone()}.</div>
          {quiet && (
            <div className="pref-times">
              <Select aria-label="Quiet hours start" size="small" value={quiet.start} options={timeOptions} onChange={(start) => change({ quietHours: { ...quiet, start, timeZone: browserTimeZone() } })} />
              <span>to</span>
              <Select aria-label="Quiet hours end" size="small" value={quiet.end} options={timeOptions} onChange={(end) => change({ quietHours: { ...quiet, end, timeZone: browserTimeZone() } })} />
            </div>
          )}
        </div>
        <Switch aria-labelledby="pref-quiet-label" checked={quiet !== null} onChange={(on) => change({ quietHours: on ? { ...DEFAULT_QUIET, timeZone: browserTimeZone() } : null })} />
      </div>
      <div className="pref-row">
        <div>
          <div id="pref-urgent-label" className="pref-title">
            Urgent Offers
          </div>
          <div className="pref-text">Offers starting within 48 hours reach you at once, even in quiet hours.</div>
        </div>
        <Switch aria-labelledby="pref-urgent-label" checked={prefs.urgent} onChange={(urgent) => change({ urgent })} />
      </div>
      <div className="pref-row">
        <div>
          <div id="pref-digest-label" className="pref-title">
            Daily Digest
          </div>
          <div className="pref-text">One email a day with new offers for your trips and wishes.</div>
          {digest && (
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
          )}
        </div>
        <Switch aria-labelledby="pref-digest-label" checked={digest !== null} onChange={(on) => change({ digest: on ? { hour: DEFAULT_DIGEST_HOUR, timeZone: browserTimeZone() } : null })} />
      </div>
    </>
  );
}
