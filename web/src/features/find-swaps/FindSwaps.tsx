import { useQueryClient } from '@tanstack/react-query';
import { Button, Select, Switch, Tag } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import type { MatchSort, Pilot, SwapMatch, Trip } from '@crewswap/proto';
import { queryKeys } from '../../api/keys';
import { searchRange, swapWindowDays } from '../../api/settings';
import { useFindSwapOffers, useFoundSwapOffers, useReorderSwapOffers, useSwapOfferPages, type SwapSearchRange } from '../../api/trips';
import { formatRange } from '../../shared/format';
import { LegalityTag } from '../../shared/LegalityTag';
import { TripValue } from '../../shared/TripValue';
import { toast } from '../../shared/toast';
import { useNearView } from '../../shared/useNearView';

const SORT_OPTIONS: { value: MatchSort; label: string }[] = [
  { value: 'relevance', label: 'Relevance' },
  { value: 'start', label: 'Start date' },
  { value: 'block', label: 'Block hours' },
  { value: 'daysAway', label: 'Days away' },
];

const SwapOfferDetailsDialog = lazy(() => import('./SwapOfferDetailsDialog'));
const ProposeSwapDialog = lazy(() => import('../proposals/ProposeSwapDialog'));

/** Find swaps for one trip: the button's action and the search it found offers for, kept per trip in the cache. */
export function useFindSwaps(trip: Trip, pilot: Pilot) {
  const queryClient = useQueryClient();
  const { range, clear } = useFoundSwapOffers(trip.id);
  const findOffers = useFindSwapOffers(trip.id);

  const find = () => {
    // The setting as known when asked (the trips page loads it), not subscribed to: every card
    // drawn again when it arrives would hold a phone's main thread for long.
    const windowDays = swapWindowDays(pilot.searchDayRange, queryClient.getQueryData<string>(queryKeys.setting('swap_search_days')));
    findOffers.mutate(searchRange(trip, windowDays), {
      onSuccess: ({ total }) => {
        if (total === 0) toast.info('No Offered Trips Found', `No offered trips within ${windowDays} days of your trip.`);
      },
    });
  };

  return { range, find, clear, searching: findOffers.isPending };
}

interface ListProps {
  tripId: string;
  range: SwapSearchRange;
  pilot: Pilot;
  /** The trip Find swaps was pressed on: the one a proposal gives. */
  trip: Trip;
  onClear: () => void;
}

/**
 * The offers found for a trip, Mutual first, then Urgent, then by date: the first 50 come with
 * Find Swaps, the next as the list's end scrolls into view (or Load more is pressed).
 */
export function SwapMatchList({ tripId, range, pilot, trip, onClear }: ListProps) {
  const [collapsed, setCollapsed] = useState(false);
  const [selected, setSelected] = useState<SwapMatch | null>(null);
  const [proposing, setProposing] = useState<SwapMatch | null>(null);
  const pages = useSwapOfferPages(tripId, range);
  const reorder = useReorderSwapOffers(tripId);
  const matches = pages.data?.pages.flatMap((page) => page.matches) ?? [];
  const total = pages.data?.pages[0]?.total ?? 0;
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = pages;
  const end = useRef<HTMLDivElement>(null);

  // The list's end near the screen asks for the next page; a failed page waits for Try again.
  const wantsMore = !collapsed && hasNextPage && !isFetchingNextPage && !isFetchNextPageError;
  useNearView(end, wantsMore, () => void fetchNextPage(), '400px 0px', matches.length);

  // Hiding offers the pilot may not fly can leave none: the list stays, so the switch can be turned off.
  if (matches.length === 0 && !range.legalOnly) return null;
  return (
    <section className="matches" aria-label="Matching swap offers">
      <div className="matches-head">
        <strong>
          {total} swap {total === 1 ? 'offer' : 'offers'}
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
        <>
          <div className="matches-order">
            <label>
              <Switch
                size="small"
                checked={range.legalOnly ?? false}
                loading={reorder.isPending}
                onChange={(legalOnly) => reorder.mutate({ ...range, legalOnly })}
              />{' '}
              Hide offers I may not fly
            </label>
            <Select
              size="small"
              aria-label="Sort offers by"
              value={range.sort ?? 'relevance'}
              options={SORT_OPTIONS}
              onChange={(sort: MatchSort) => reorder.mutate({ ...range, sort })}
              popupMatchSelectWidth={false}
            />
          </div>
          <ul className="match-list">
            {matches.map((match) => (
              <li key={match.trip.id}>
                <button type="button" className="match-row" onClick={() => setSelected(match)}>
                  <span className="match-line">
                    <span className="match-pilot">
                      {match.pilot.rank} {match.pilot.firstName} {match.pilot.lastName}
                    </span>
                    <span className="match-tags">
                      {match.mutual && (
                        <Tag color="cyan" title="They could take your trip too">
                          Mutual
                        </Tag>
                      )}
                      {match.urgent && (
                        <Tag color="volcano" title="Starts within 48 hours">
                          Urgent
                        </Tag>
                      )}
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
                  <TripValue trip={match.trip} />
                  <LegalityTag legality={match} />
                </button>
                <Button size="small" className="match-propose" onClick={() => setProposing(match)} aria-label={`Propose Swap with ${match.pilot.firstName} ${match.pilot.lastName}`}>
                  Propose Swap
                </Button>
              </li>
            ))}
          </ul>
          <div className="matches-more" ref={end} role="status" aria-live="polite">
            <span>
              Showing {matches.length} of {total}
            </span>
            {isFetchNextPageError ? (
              <>
                <span>Failed to load more offers.</span>
                <Button size="small" onClick={() => void fetchNextPage()}>
                  Try again
                </Button>
              </>
            ) : (
              hasNextPage && (
                <Button size="small" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                  {isFetchingNextPage ? 'Loading…' : 'Load more'}
                </Button>
              )
            )}
          </div>
        </>
      )}
      <Suspense fallback={null}>
        {selected && (
          <SwapOfferDetailsDialog
            match={selected}
            me={pilot}
            onClose={() => setSelected(null)}
            onPropose={() => {
              setProposing(selected);
              setSelected(null);
            }}
          />
        )}
        {proposing && <ProposeSwapDialog myTrip={trip} match={proposing} onClose={() => setProposing(null)} />}
      </Suspense>
    </section>
  );
}
