import { Spin } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { Pilot, SwapMatch, Trip } from '@crewswap/proto';
import { londonToday } from '@crewswap/proto/browser';
import { useCalendarMatches } from '../../api/calendars';
import { searchRange, swapWindowDays, useSetting } from '../../api/settings';
import { NotKept, waitsForNetwork } from '../offline/NotKept';
import { tripBar } from './bars';
import { CalendarGrid, type CalendarRow } from './CalendarGrid';
import { paddedRange } from './layout';

const SwapOfferDetailsDialog = lazy(() => import('../find-swaps/SwapOfferDetailsDialog'));

/** Swap Calendar: the pilot's trips, and a row per pilot whose offered trips match one of them. */
export function SwapCalendar({ pilot, trips }: { pilot: Pilot; trips: readonly Trip[] }) {
  const windowDays = swapWindowDays(pilot.searchDayRange, useSetting('swap_search_days').data);
  const today = londonToday();
  const searches = useMemo(
    () => trips.filter((trip) => !trip.isStandby && trip.endDate >= today).map((trip) => ({ trip, ...searchRange(trip, windowDays) })),
    [trips, today, windowDays],
  );
  const results = useCalendarMatches(searches);
  const [selected, setSelected] = useState<SwapMatch | null>(null);
  const loading = results.some((result) => result.isLoading);
  const notKept = results.some(waitsForNetwork);

  // An offer can match several of the pilot's trips: it is shown once.
  const byTrip = new Map<string, SwapMatch>();
  for (const result of results) for (const match of result.data ?? []) byTrip.set(match.trip.id, match);
  const offers = [...byTrip.values()];

  const rows: CalendarRow[] = (() => {
    // A match names its pilot by contact details only: the company email is what tells pilots apart.
    const byPilot = new Map<string, SwapMatch[]>();
    for (const offer of offers) byPilot.set(offer.pilot.email, [...(byPilot.get(offer.pilot.email) ?? []), offer]);
    const others = [...byPilot.values()].sort((a, b) => a[0]!.trip.startDate.localeCompare(b[0]!.trip.startDate));
    return [
      { key: 'me', own: true, label: 'My trips', sub: `${pilot.rank} · ${pilot.fleet}`, bars: trips.map((trip) => tripBar(trip)) },
      ...others.map((matches) => {
        const them = matches[0]!.pilot;
        return {
          key: them.email,
          label: `${them.firstName} ${them.lastName}`,
          sub: `${them.rank} · ${them.fleet} · ${matches.length} ${matches.length === 1 ? 'offer' : 'offers'}`,
          bars: matches.map((match) =>
            tripBar(match.trip, { fallback: 'offered', prefix: `Swap offer from ${them.firstName} ${them.lastName}: `, onClick: () => setSelected(match) }),
          ),
        };
      }),
    ];
  })();

  const range = paddedRange([...trips, ...offers.map((offer) => offer.trip)]);
  return (
    <>
      {notKept && <NotKept what="The Swap Calendar" />}
      {loading && (
        <div className="cal-note" role="status">
          <Spin size="small" /> Finding swap offers for your trips...
        </div>
      )}
      {!loading && !notKept && offers.length === 0 && trips.length > 0 && <p className="muted cal-note">No matching swap offers for your trips right now.</p>}
      {range ? <CalendarGrid range={range} rows={rows} label="Swap Calendar" /> : <p className="muted">Add or upload trips to see them here.</p>}
      <Suspense fallback={null}>{selected && <SwapOfferDetailsDialog match={selected} me={pilot} onClose={() => setSelected(null)} />}</Suspense>
    </>
  );
}
