import { fireEvent, screen, within } from '@testing-library/react';
import type { RosterUploadResult } from '@crewswap/proto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../test/render';
import RosterAddressSection from './RosterAddressSection';
import RosterUploadResultView from './RosterUploadResultView';

afterEach(() => vi.unstubAllGlobals());

const ADDRESS = 'webcal://crew.example-airline.test/roster/abc.ics';

const trip = (flightNoStart: string, flightNoEnd: string, route: string, startDate: string, endDate: string) => ({ flightNoStart, flightNoEnd, route, startDate, endDate, aircraft: 'B787' as const, icsDescription: null });
const CHANGED_ID = '0b1b255d-e5df-4f1e-93cc-92a59b076d04';

/** The first fetch's RosterUploadResult: a trip added, one changed, one removed, one skipped as too old, two duplicates. */
const FIRST_FETCH: RosterUploadResult = {
  processedCount: 1,
  duplicateCount: 2,
  conflictCount: 0,
  conflicts: [],
  skippedCount: 1,
  skipped: [{ trip: 'VS001/VS002 (01/03/2026 to 01/05/2026)', reason: 'Trip ended more than 7 days ago' }],
  message: 'Roster imported from your roster address',
  addedCount: 1,
  changedCount: 1,
  removedCount: 1,
  changes: [
    { kind: 'removed', tripId: '1b1b255d-e5df-4f1e-93cc-92a59b076d04', before: trip('VS411', 'VS412', 'LOS', '2026-12-15', '2026-12-17') },
    { kind: 'changed', tripId: CHANGED_ID, before: trip('VS007', 'VS008', 'LAX', '2027-01-08', '2027-01-11'), after: trip('VS023', 'VS024', 'LAX', '2027-01-08', '2027-01-11') },
    { kind: 'added', tripId: '2b1b255d-e5df-4f1e-93cc-92a59b076d04', after: trip('VS025', 'VS026', 'JFK', '2027-01-26', '2027-01-28') },
  ],
};

describe('Roster address', () => {
  it("saves the address and shows the first fetch's result as an upload's: the summary with the skipped count, each trip's before and after, the trips skipped", async () => {
    let saved = false;
    const { calls } = stubFetch((call) => {
      if (call.path !== '/api/roster/subscription') return undefined;
      if (call.method === 'PUT') {
        saved = true;
        return { body: { url: ADDRESS, lastFetchedAt: '2026-12-01T09:10:00.000Z', lastStatus: 'ok', nextFetchAt: '2026-12-01T10:20:00.000Z', result: FIRST_FETCH } };
      }
      return saved ? { body: { url: ADDRESS, lastFetchedAt: '2026-12-01T09:10:00.000Z', lastStatus: 'ok', nextFetchAt: '2026-12-01T10:20:00.000Z' } } : { status: 404, body: { error: 'You have no roster address.' } };
    });
    renderWithApp(<RosterAddressSection />);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Roster address' }), { target: { value: ` ${ADDRESS} ` } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The summary an upload shows (resultSummary), with the skipped count, not the server's message.
    expect(await screen.findByText('1 added, 1 changed, 1 removed, 1 skipped')).toBeInTheDocument();
    expect(screen.queryByText(FIRST_FETCH.message)).not.toBeInTheDocument();
    const shown = screen.getByLabelText('Roster address result');
    const changes = [...within(shown).getByRole('list', { name: 'Roster changes' }).querySelectorAll('li')].map((item) => item.textContent);
    expect(changes).toHaveLength(3);
    expect(changes[0]).toMatch(/^Removed: VS411\/VS412 LOS \(B787\), /);
    expect(changes[1]).toMatch(/^Changed: VS007\/VS008 LAX \(B787\), .+ VS023\/VS024 LAX \(B787\), /);
    expect(within(shown).getByLabelText('now')).toBeInTheDocument();
    expect(changes[2]).toMatch(/^Added: VS025\/VS026 JFK \(B787\), /);
    expect(within(shown).getByText('Skipped:')).toBeInTheDocument();
    expect(within(shown).getByText('VS001/VS002 (01/03/2026 to 01/05/2026): Trip ended more than 7 days ago')).toBeInTheDocument();
    expect(within(shown).getByText('2 already in your trips (duplicates skipped)')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ url: ADDRESS });
    expect(JSON.parse(localStorage.getItem('crewswap.changed-trips') ?? '[]')).toContain(CHANGED_ID);
    expect(await screen.findByText(/Last fetched .*: imported\. Next fetch/)).toBeInTheDocument();
  });

  it('renders the result with the very component the Upload Roster dialog uses, so the two cannot drift apart', async () => {
    stubFetch((call) =>
      call.path === '/api/roster/subscription' && call.method === 'PUT'
        ? { body: { url: ADDRESS, lastFetchedAt: '2026-12-01T09:10:00.000Z', lastStatus: 'ok', nextFetchAt: '2026-12-01T10:20:00.000Z', result: FIRST_FETCH } }
        : undefined,
    );
    renderWithApp(<RosterAddressSection />);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Roster address' }), { target: { value: ADDRESS } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const shown = await screen.findByLabelText('Roster address result');
    const { container } = renderWithApp(<RosterUploadResultView result={FIRST_FETCH} label="Roster address result" />);
    expect(shown.outerHTML).toBe(container.querySelector('.roster-result')!.outerHTML);
  });

  it("shows the server's sentence when the address is refused", async () => {
    const sentence = 'This roster address points to a private or internal network, which CrewSwap does not fetch from.';
    stubFetch((call) => (call.path === '/api/roster/subscription' && call.method === 'PUT' ? { status: 400, body: { error: sentence, message: sentence } } : undefined));
    renderWithApp(<RosterAddressSection />);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Roster address' }), { target: { value: 'https://10.0.0.1/roster.ics' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(sentence)).toBeInTheDocument();
  });

  it('says when the address was paused after failing', async () => {
    stubFetch((call) =>
      call.path === '/api/roster/subscription' ? { body: { url: ADDRESS, lastFetchedAt: '2026-12-01T09:10:00.000Z', lastStatus: 'paused', lastError: 'The roster address answered with an error (HTTP 404), so nothing was imported.', nextFetchAt: null } } : undefined,
    );
    renderWithApp(<RosterAddressSection />);
    expect(await screen.findByText(/Paused after 5 failed fetches: .*HTTP 404.* Save the address again to restart\./)).toBeInTheDocument();
  });
});
