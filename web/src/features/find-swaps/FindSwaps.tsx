import { useQueryClient } from '@tanstack/react-query';
import { Button, Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import type { Pilot, SwapMatch, Trip } from '@crewswap/proto';
import { queryKeys } from '../../api/keys';
import { searchRange, swapWindowDays } from '../../api/settings';
import { useFindSwapOffers, useFoundSwapOffers } from '../../api/trips';
import { formatRange } from '../../shared/format';
import { toast } from '../../shared/toast';

const SwapOfferDetailsDialog = lazy(() => import('./SwapOfferDetailsDialog'));

/** Find swaps for one trip: the button's action and the found offers, kept per trip in the cache. */
export function useFindSwaps(trip: Trip, pilot: Pilot) {
  const queryClient = useQueryClient();
  const { matches, clear } = useFoundSwapOffers(trip.id);
  const findOffers = useFindSwapOffers(trip.id);

  const find = () => {
    // The setting as known when asked (the trips page loads it), not subscribed to: every card
    // drawn again when it arrives would hold a phone's main thread for long.
    const windowDays = swapWindowDays(pilot.searchDayRange, queryClient.getQueryData<string>(queryKeys.setting('swap_search_days')));
    findOffers.mutate(searchRange(trip, windowDays), {
      onSuccess: (found) => {
        if (found.length === 0) toast.info('No Offered Trips Found', `No offered trips within ${windowDays} days of your trip.`);
      },
    });
  };

  return { matches, find, clear, searching: findOffers.isPending };
}

interface ListProps {
  matches: SwapMatch[];
  pilot: Pilot;
  onClear: () => void;
}

export function SwapMatchList({ matches, pilot, onClear }: ListProps) {
  const [collapsed, setCollapsed] = useState(false);
  const [selected, setSelected] = useState<SwapMatch | null>(null);
  return (
    <section className="matches" aria-label="Matching swap offers">
      <div className="matches-head">
        <strong>
          {matches.length} swap {matches.length === 1 ? 'offer' : 'offers'}
        </strong>
        <span className="matches-actions">
          <Button size="small" onClick={() => setCollapsed((c) => !c)} aria-expanded={!collapsed}>
            {collapsed ? 'Expand' : 'Collapse'}
          </Button>
          <Button size="small" onClick={onClear}>
            Clear
          </Button>
        </span>
      </div>
      {!collapsed && (
        <ul className="match-list">
          {matches.map((match) => (
            <li key={match.trip.id}>
              <button type="button" className="match-row" onClick={() => setSelected(match)}>
                <span className="match-line">
                  <span className="match-pilot">
                    {match.pilot.rank} {match.pilot.firstName} {match.pilot.lastName}
                  </span>
                  <span className="match-tags">
                    {match.sameDates && <Tag color="purple">Same Dates</Tag>}
                    {match.trip.requested && <Tag color="green">Keep Trip</Tag>}
                    {match.trip.training && <Tag color="blue">Training</Tag>}
                  </span>
                </span>
                <span className="match-line">
                  <span>{formatRange(match.trip.startDate, match.trip.endDate)}</span>
                  <span>
                    {match.trip.flightNoStart}/{match.trip.flightNoEnd} {match.trip.route}
                    {match.trip.aircraft ? ` · ${match.trip.aircraft}` : ''}
                  </span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Suspense fallback={null}>
        {selected && <SwapOfferDetailsDialog match={selected} me={pilot} onClose={() => setSelected(null)} />}
      </Suspense>
    </section>
  );
}
