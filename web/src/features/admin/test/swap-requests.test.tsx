import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SwapRequest } from '@crewswap/proto';
import { makeTrip, PILOT, renderWithApp, stubFetch } from '../../../../test/render';
import SwapRequestsPanel from '../panels/swap-requests/SwapRequestsPanel';

afterEach(() => vi.unstubAllGlobals());

const contact = { id: PILOT.id, employeeId: PILOT.employeeId, firstName: PILOT.firstName, lastName: PILOT.lastName, email: PILOT.email, phone: PILOT.phone, rank: PILOT.rank, fleet: PILOT.fleet, base: PILOT.base, apic: PILOT.apic, ltc: PILOT.ltc };
const OWNER = { ...contact, id: '33333333-3333-4333-8333-333333333333', employeeId: '654321', firstName: 'Olga', lastName: 'Owner', rank: 'CP' as const, apic: false };

const REQUEST: SwapRequest = {
  id: '44444444-4444-4444-8444-444444444444',
  status: 'pending',
  kind: 'swap',
  agreedAt: '2026-11-28T09:00:00.000Z',
  decidedAt: null,
  decidedBy: null,
  reason: null,
  note: 'Family wedding',
  proposer: { pilot: contact, trip: makeTrip({ flightNoStart: 'VS025', flightNoEnd: 'VS026', route: 'JFK' }) },
  owner: { pilot: OWNER, trip: makeTrip({ id: '55555555-5555-4555-8555-555555555555', pilotId: OWNER.id, flightNoStart: 'VS003', flightNoEnd: 'VS004', route: 'JFK' }) },
  warnings: ['The offered trip has changed since the pilots agreed'],
  legality: null,
};

function Address() {
  const location = useLocation();
  return <output aria-label="Address">{location.search}</output>;
}

function renderDesk(path: string, answer = (search: string): unknown => ({ requests: search.includes('status=refused') ? [] : [REQUEST] })) {
  const stub = stubFetch((call) => {
    if (call.path.startsWith('/api/admin/swap-requests?') || call.path === '/api/admin/swap-requests') {
      return { body: answer(call.path) };
    }
    if (call.path.endsWith('/refuse')) return { status: 409, body: { error: 'This swap request has already been decided.' } };
    return undefined;
  });
  renderWithApp(
    <>
      <SwapRequestsPanel />
      <Address />
    </>,
    { path },
  );
  return stub;
}

const listCalls = (calls: { path: string; method: string }[]) => calls.filter((call) => call.method === 'GET' && call.path.startsWith('/api/admin/swap-requests')).map((call) => call.path);

describe('Swap Requests (the crewing desk)', () => {
  it('reads the status and fleet filters from the address and asks the server for exactly those', async () => {
    const { calls } = renderDesk('/admin/swap-requests?status=approved&fleet=A350');
    await screen.findByRole('article', { name: `Swap request: ${PILOT.firstName} ${PILOT.lastName} and Olga Owner` });
    expect(listCalls(calls)).toEqual(['/api/admin/swap-requests?status=approved&fleet=A350']);
  });

  it('opens on the pending requests, and a changed filter goes into the address', async () => {
    const { calls } = renderDesk('/admin/swap-requests');
    const card = await screen.findByRole('article', { name: /^Swap request:/ });
    // Both pilots side by side, both trips, the note and the warning.
    expect(within(card).getByText('Olga Owner')).toBeInTheDocument();
    expect(within(card).getByText(/VS025\/VS026 JFK/)).toBeInTheDocument();
    expect(within(card).getByText(/VS003\/VS004 JFK/)).toBeInTheDocument();
    expect(within(card).getByText('“Family wedding”')).toBeInTheDocument();
    expect(within(card).getByRole('alert')).toHaveTextContent('The offered trip has changed since the pilots agreed');
    expect(listCalls(calls)).toEqual(['/api/admin/swap-requests?status=pending']);
    expect(screen.getByLabelText('Address')).toHaveTextContent(/^$/);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByTitle('Refused'));
    await waitFor(() => expect(screen.getByLabelText('Address')).toHaveTextContent('?status=refused'));
    expect(await screen.findByText('No swap requests')).toBeInTheDocument();
    expect(listCalls(calls).at(-1)).toBe('/api/admin/swap-requests?status=refused');
  });

  it('shows a give-away as one trip and "Give-away"', async () => {
    renderDesk('/admin/swap-requests', () => ({ requests: [{ ...REQUEST, kind: 'giveaway', proposer: { pilot: contact, trip: null }, warnings: [] }] }));
    const card = await screen.findByRole('article', { name: `Swap request: Give-away: Olga Owner to ${PILOT.firstName} ${PILOT.lastName}` });
    expect(within(card).getAllByText('Give-away').length).toBeGreaterThan(0);
    expect(within(card).queryByText(/VS025/)).toBeNull();
  });

  it("shows the flight time limits check of both pilots: the proposer's 'Not legal' with its sentence, the owner's 'Legal'", async () => {
    const rest = 'Rest before VS003 on 2099-03-10 would be 9 h 10 min; at least 12 h needed';
    renderDesk('/admin/swap-requests', () => ({ requests: [{ ...REQUEST, legality: { proposer: { legal: false, reasons: [rest] }, owner: { legal: true, reasons: [] } } }] }));
    const proposer = await screen.findByLabelText(`Flight time limits: ${PILOT.firstName} ${PILOT.lastName}`);
    expect(proposer).toHaveTextContent('Not legal');
    expect(proposer).toHaveTextContent(rest);
    const owner = screen.getByLabelText('Flight time limits: Olga Owner');
    expect(owner).toHaveTextContent('Legal');
    expect(owner).not.toHaveTextContent('Not legal');
  });

  it("a check without times says 'Times unknown'; a request without checks shows none", async () => {
    renderDesk('/admin/swap-requests', () => ({ requests: [{ ...REQUEST, legality: { proposer: { legal: 'unknown', reasons: [] }, owner: null } }] }));
    expect(await screen.findByLabelText(`Flight time limits: ${PILOT.firstName} ${PILOT.lastName}`)).toHaveTextContent('Times unknown');
    expect(screen.queryByLabelText('Flight time limits: Olga Owner')).not.toBeInTheDocument();
  });

  it('refuses only with a reason of at most 200 characters, and shows the server’s 409 sentence', async () => {
    const { calls } = renderDesk('/admin/swap-requests');
    const card = await screen.findByRole('article', { name: /^Swap request:/ });
    fireEvent.click(within(card).getByRole('button', { name: 'Refuse' }));
    const dialog = await screen.findByRole('dialog');
    const refuse = within(dialog).getByRole('button', { name: 'Refuse Swap' });

    fireEvent.click(refuse);
    expect(await within(dialog).findByText('Please give a reason')).toBeInTheDocument();
    const reason = within(dialog).getByLabelText('Reason (the pilots read it)');
    fireEvent.change(reason, { target: { value: 'x'.repeat(201) } });
    expect(within(dialog).getByText('201 / 200')).toBeInTheDocument();
    fireEvent.click(refuse);
    expect(await within(dialog).findByText('The reason can be at most 200 characters')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    fireEvent.change(reason, { target: { value: '  Not enough rest before the trip  ' } });
    fireEvent.click(refuse);
    expect(await within(dialog).findByText('This swap request has already been decided.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', path: `/api/admin/swap-requests/${REQUEST.id}/refuse`, body: { reason: 'Not enough rest before the trip' } },
    ]);
  });
});
