import { Alert, Empty, Spin } from 'antd';
import { useMemo, useState } from 'react';
import type { CrossoverTripGroup as CrossoverGroup, Pilot, Trip } from '@crewswap/proto';
import { CROSSOVER_MESSAGES } from '@crewswap/proto/browser';
import { useCrossoverTrips } from '../../api/calendars';
import { errorMessage } from '../../api/client';
import { AppModal } from '../../shared/AppModal';
import { formatRange } from '../../shared/format';
import { CrewList } from '../crew/CrewList';
import { NotKept, waitsForNetwork } from '../offline/NotKept';
import { tripBar } from './bars';
import { CalendarGrid, type CalendarRow } from './CalendarGrid';
import { paddedRange } from './layout';

/** Crossover Calendar: the pilot's trips, and the crossover flights overlapping them with how many pilots are on each. */
export function CrossoverCalendar({ pilot, trips }: { pilot: Pilot; trips: readonly Trip[] }) {
  const crossovers = useCrossoverTrips();
  const [open, setOpen] = useState<CrossoverGroup | null>(null);

  const rows = useMemo<CalendarRow[]>(() => {
    const groups = crossovers.data ?? [];
    return [
      { key: 'me', own: true, label: 'My trips', sub: `${pilot.rank} · ${pilot.fleet}`, bars: trips.map((trip) => tripBar(trip)) },
      ...groups.map((group, index) => {
        const count = group.pilots.length;
        const flights = `${group.flightNumber}/${group.flightNumberEnd}`;
        return {
          key: `${flights}-${group.startDate}-${index}`,
          label: `${flights} ${group.destination}`,
          sub: formatRange(group.startDate, group.endDate),
          bars: [
            {
              key: 'group',
              startDate: group.startDate,
              endDate: group.endDate,
              text: `${count} ${count === 1 ? 'pilot' : 'pilots'}`,
              title: `${flights} ${group.destination} ${formatRange(group.startDate, group.endDate)}: ${count} ${count === 1 ? 'pilot' : 'pilots'}`,
              tone: 'crossover' as const,
              onClick: () => setOpen(group),
            },
          ],
        };
      }),
    ];
  }, [crossovers.data, pilot, trips]);

  if (trips.length === 0) return <Empty description={CROSSOVER_MESSAGES.noOwnTrips} />;
  if (waitsForNetwork(crossovers)) return <NotKept what="The Crossover Calendar" />;
  if (crossovers.isLoading) {
    return (
      <div className="page-center" role="status">
        <Spin />
        <p>Loading crossover flights...</p>
      </div>
    );
  }
  if (crossovers.isError) return <Alert type="error" showIcon title={`Failed to load crossover flights: ${errorMessage(crossovers.error)}`} />;
  const range = paddedRange([...trips, ...(crossovers.data ?? [])]);
  return (
    <>
      {crossovers.data?.length === 0 && <Alert type="info" showIcon title={CROSSOVER_MESSAGES.none} className="cal-note" />}
      {range && <CalendarGrid range={range} rows={rows} label="Crossover Calendar" />}
      {open && (
        <AppModal title={`${open.flightNumber}/${open.flightNumberEnd} ${open.destination}`} onCancel={() => setOpen(null)}>
          <p className="muted">{formatRange(open.startDate, open.endDate)}</p>
          <CrewList
            crew={open.pilots}
            me={pilot}
            trip={{ flightNoStart: open.flightNumber, flightNoEnd: open.flightNumberEnd, route: open.destination, startDate: open.startDate, endDate: open.endDate }}
          />
        </AppModal>
      )}
    </>
  );
}
