import { Alert, Spin } from 'antd';
import { useMemo, useState } from 'react';
import type { MasterCalendarPilot, MasterCalendarTrip, Pilot, Trip } from '@crewswap/proto';
import { londonToday } from '@crewswap/proto/browser';
import { useMasterCalendar } from '../../api/calendars';
import { errorMessage } from '../../api/client';
import PilotContactDialog from '../crew/PilotContactDialog';
import { NotKept, waitsForNetwork } from '../offline/NotKept';
import { tripBar } from './bars';
import { CalendarGrid, type CalendarRow } from './CalendarGrid';
import { masterWindow } from './layout';
import { masterOrder } from './order';

/**
 * Master Calendar: a row per Master-Roster-on pilot of the pilot's rank and fleet, own row first;
 * tapping another pilot's bar opens their contact view.
 * The server answers every caller the same list; the own row is built here from the trips the app
 * holds (always current, whatever the rank and fleet), and the list's copy of it is left out.
 */
export function MasterCalendar({ pilot, trips }: { pilot: Pilot; trips: readonly Trip[] }) {
  const calendar = useMasterCalendar(pilot.rank, pilot.fleet);
  const range = useMemo(() => masterWindow(londonToday()), []);
  const [contact, setContact] = useState<{ pilot: MasterCalendarPilot; trip: MasterCalendarTrip } | null>(null);

  const rows = useMemo<CalendarRow[]>(() => {
    const byPilot = new Map<string, { pilot: MasterCalendarPilot; trips: Map<string, MasterCalendarTrip> }>();
    byPilot.set(pilot.id, { pilot, trips: new Map(trips.map((trip) => [trip.id, trip])) });
    for (const entry of calendar.data ?? []) {
      if (entry.pilot.id === pilot.id) continue;
      const row = byPilot.get(entry.pilot.id) ?? { pilot: entry.pilot, trips: new Map<string, MasterCalendarTrip>() };
      row.trips.set(entry.trip.id, entry.trip);
      byPilot.set(entry.pilot.id, row);
    }
    const ordered = masterOrder(
      [...byPilot.values()].map((row) => ({ ...row.pilot, row })),
      pilot,
    );
    return ordered.map(({ row }) => ({
      key: row.pilot.id,
      own: row.pilot.id === pilot.id,
      label: row.pilot.id === pilot.id ? 'Me' : `${row.pilot.firstName} ${row.pilot.lastName}`,
      sub: `${row.pilot.rank} · ${row.pilot.fleet}`,
      bars: [...row.trips.values()].map((trip) =>
        row.pilot.id === pilot.id
          ? tripBar(trip, { fallback: 'own' })
          : tripBar(trip, { fallback: 'other', onClick: () => setContact({ pilot: row.pilot, trip }) }),
      ),
    }));
  }, [calendar.data, pilot, trips]);

  if (waitsForNetwork(calendar)) return <NotKept what="The Master Calendar" />;
  if (calendar.isLoading) {
    return (
      <div className="page-center" role="status">
        <Spin />
        <p>Loading the Master Calendar...</p>
      </div>
    );
  }
  if (calendar.isError) return <Alert type="error" showIcon title={`Failed to load the Master Calendar: ${errorMessage(calendar.error)}`} />;
  return (
    <>
      <CalendarGrid range={range} rows={rows} label="Master Calendar" />
      {contact && <PilotContactDialog pilot={contact.pilot} me={pilot} trip={contact.trip} onClose={() => setContact(null)} />}
    </>
  );
}
