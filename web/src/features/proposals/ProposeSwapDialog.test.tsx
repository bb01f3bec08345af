import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PilotMonthResponse, SwapMatch } from '@crewswap/proto';
import { makeTrip, renderWithApp, stubFetch } from '../../../test/render';
import ProposeSwapDialog from './ProposeSwapDialog';

afterEach(() => vi.unstubAllGlobals());

const MY_TRIP = makeTrip();
const REST = 'Rest before VS025 on 2099-03-14 would be 9 h 10 min; at least 12 h needed';
const MATCH: SwapMatch = {
  trip: makeTrip({ id: '44444444-4444-4444-8444-444444444444', pilotId: '33333333-3333-4333-8333-333333333333', flightNoStart: 'VS025', flightNoEnd: 'VS026', startDate: '2099-03-14', endDate: '2099-03-16' }),
  pilot: { firstName: 'Olga', lastName: 'Owner', email: 'olga.owner@fly.virgin.com', phone: '+447700900456', rank: 'FO', fleet: 'A350', base: 'LHR' },
  sameDates: false,
  mutual: false,
  urgent: false,
  legal: false,
  reasons: [REST],
};
const MONTH: PilotMonthResponse = {
  month: '2099-03',
  totals: { blockMinutes: 1000, dutyMinutes: 1500, daysAway: 3, daysOff: 28, tripsWithoutTimes: 0 },
  after: { blockMinutes: 1240, dutyMinutes: 1800, daysAway: 3, daysOff: 28, tripsWithoutTimes: 1 },
};

describe('Propose Swap: what the swap does to my month, before proposing', () => {
  it("asks the month of the offered trip with it and without mine, and shows the totals now and after; the offer's check with its sentence", async () => {
    const { calls } = stubFetch((call) => (call.path.startsWith('/api/pilot/month?') ? { body: MONTH } : undefined));
    renderWithApp(<ProposeSwapDialog myTrip={MY_TRIP} match={MATCH} onClose={() => {}} />);
    const table = await screen.findByRole('table', { name: 'Your month: March 2099' });
    expect(calls.map((call) => call.path)).toContain(`/api/pilot/month?month=2099-03&with=${MATCH.trip.id}&without=${MY_TRIP.id}`);
    const row = (label: string) => within(table).getByRole('row', { name: new RegExp(`^${label} `) });
    expect(row('Block')).toHaveTextContent('Block16:4020:40');
    expect(row('Duty')).toHaveTextContent('Duty25:0030:00');
    expect(row('Days off')).toHaveTextContent('Days off2828');
    expect(within(table).getByText('1 trip has no times: not in block and duty')).toBeInTheDocument();
    const legality = screen.getByLabelText('Flight time limits');
    expect(legality).toHaveTextContent('Not legal');
    expect(legality).toHaveTextContent(REST);
  });

  it('a month that cannot be worked out says so', async () => {
    stubFetch((call) => (call.path.startsWith('/api/pilot/month?') ? { status: 500, body: { error: 'Database unavailable' } } : undefined));
    renderWithApp(<ProposeSwapDialog myTrip={MY_TRIP} match={MATCH} onClose={() => {}} />);
    expect(await screen.findByText('Your month could not be worked out.')).toBeInTheDocument();
  });
});
