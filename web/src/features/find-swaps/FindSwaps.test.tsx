import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SwapMatch, SwapMatchPage, Trip } from '@crewswap/proto';
import { makeTrip, PILOT, renderWithApp, stubFetch } from '../../../test/render';
import { SwapMatchList, useFindSwaps } from './FindSwaps';

afterEach(() => vi.unstubAllGlobals());

const MY_TRIP = makeTrip({ isSwappable: true });
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga.owner@fly.virgin.com', phone: '+447700900456', rank: 'FO' as const, fleet: 'A350' as const, base: 'LHR' as const };
const REST = 'Rest before VS025 on 2099-03-14 would be 9 h 10 min; at least 12 h needed';

function offer(id: string, flightNoStart: string, legality: Pick<SwapMatch, 'legal' | 'reasons'>): SwapMatch {
  const trip = makeTrip({ id, pilotId: '33333333-3333-4333-8333-333333333333', flightNoStart, startDate: '2099-03-14', endDate: '2099-03-15', isSwappable: true });
  return { trip, pilot: OWNER, sameDates: false, mutual: false, urgent: false, ...legality };
}
const LEGAL = offer('44444444-4444-4444-8444-444444444441', 'VS011', { legal: true, reasons: [] });
const NOT_LEGAL = offer('44444444-4444-4444-8444-444444444442', 'VS025', { legal: false, reasons: [REST] });
const UNKNOWN = offer('44444444-4444-4444-8444-444444444443', 'VS041', { legal: 'unknown', reasons: [] });

function FindSwapsFor({ trip }: { trip: Trip }) {
  const { range, find, clear } = useFindSwaps(trip, PILOT);
  return (
    <>
      <button type="button" onClick={find}>
        Find Swaps
      </button>
      {range && <SwapMatchList tripId={trip.id} range={range} pilot={PILOT} trip={trip} onClear={clear} />}
    </>
  );
}

function renderFindSwaps() {
  const stub = stubFetch((call) => {
    if (!call.path.startsWith(`/api/trips/${MY_TRIP.id}/matches?`)) return undefined;
    const query = new URLSearchParams(call.path.split('?')[1]);
    let matches = query.get('legalOnly') === 'true' ? [LEGAL, UNKNOWN] : [LEGAL, NOT_LEGAL, UNKNOWN];
    if (query.get('sort') === 'block') matches = [...matches].reverse();
    const page: SwapMatchPage = { matches, total: matches.length, nextCursor: null };
    return { body: page };
  });
  renderWithApp(<FindSwapsFor trip={MY_TRIP} />);
  fireEvent.click(screen.getByRole('button', { name: 'Find Swaps' }));
  return stub;
}

const offerRow = (flightNo: string) => screen.getByText(new RegExp(`^${flightNo}/`)).closest('li')!;
const matchCalls = (calls: { path: string }[]) => calls.filter((call) => call.path.includes('/matches?')).map((call) => call.path.split('?')[1]);

describe('Find swaps: whether the pilot may fly each offer (flight time limits)', () => {
  it("each offer shows 'Legal', 'Not legal' with the limit's sentence under it, or 'Times unknown'", async () => {
    renderFindSwaps();
    await screen.findByText('3 swap offers');
    expect(within(offerRow('VS011')).getByText('Legal')).toBeInTheDocument();
    expect(within(offerRow('VS025')).getByText('Not legal')).toBeInTheDocument();
    expect(within(offerRow('VS025')).getByText(REST)).toBeInTheDocument();
    expect(within(offerRow('VS041')).getByText('Times unknown')).toBeInTheDocument();
    expect(within(offerRow('VS011')).queryByText(REST)).not.toBeInTheDocument();
  });

  it("'Hide offers I may not fly' asks again with legalOnly=true and leaves the offer out; turned off, it is back", async () => {
    const { calls } = renderFindSwaps();
    await screen.findByText('3 swap offers');
    const hide = screen.getByRole('switch', { name: 'Hide offers I may not fly' });
    fireEvent.click(hide);
    await screen.findByText('2 swap offers');
    expect(screen.queryByText('Not legal')).not.toBeInTheDocument();
    expect(matchCalls(calls).at(-1)).toBe('limit=50&startDate=2099-03-06&endDate=2099-03-14&legalOnly=true');
    fireEvent.click(screen.getByRole('switch', { name: 'Hide offers I may not fly' }));
    await screen.findByText('3 swap offers');
  });

  it('the sort select passes the chosen order to the search', async () => {
    const { calls } = renderFindSwaps();
    await screen.findByText('3 swap offers');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Sort offers by' }));
    fireEvent.click(await screen.findByTitle('Block hours'));
    await waitFor(() => expect(matchCalls(calls).at(-1)).toContain('sort=block'));
    await waitFor(() => expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('VS041'));
  });
});
