import { onlineManager } from '@tanstack/react-query';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SwapAgreement } from '@crewswap/proto';
import { makeTrip, PILOT, renderWithApp, stubFetch } from '../../../test/render';
import ProposalsDialog from './ProposalsDialog';

afterEach(() => vi.unstubAllGlobals());

describe('Swap Proposals', () => {
  it("says 'None yet' only once the lists are known: while they load it says so", async () => {
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => {})));
    renderWithApp(<ProposalsDialog me={PILOT} onClose={() => {}} />, { trips: [] });
    expect(await screen.findByText('Loading proposals...')).toBeInTheDocument();
    expect(screen.queryByText('No proposals for your offers yet')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Agreed' }));
    expect(await screen.findByText('Loading agreed swaps...')).toBeInTheDocument();
    expect(screen.queryByText('No agreed swaps yet')).not.toBeInTheDocument();
  });

  it('a list that failed to load says why, not that there is nothing', async () => {
    stubFetch(() => ({ status: 503, body: { error: 'Service temporarily unavailable' } }));
    renderWithApp(<ProposalsDialog me={PILOT} onClose={() => {}} />, { trips: [] });
    expect(await screen.findByText('Failed to load proposals: Service temporarily unavailable')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Agreed' }));
    expect(await screen.findByText('Failed to load agreed swaps: Service temporarily unavailable')).toBeInTheDocument();
    expect(screen.queryByText('No agreed swaps yet')).not.toBeInTheDocument();
  });

  it('offline, lists never opened online say they need a connection', async () => {
    stubFetch(() => ({ body: [] }));
    onlineManager.setOnline(false);
    renderWithApp(<ProposalsDialog me={PILOT} onClose={() => {}} />, { trips: [] });
    expect(await screen.findByText('Swap Proposals was not opened online on this device yet, so there is no copy to show.')).toBeInTheDocument();
    expect(screen.queryByText('Loading proposals...')).not.toBeInTheDocument();
  });

  it("with nothing received, sent or agreed, each list says so in the app's words", async () => {
    stubFetch((call) => (call.path.startsWith('/api/swaps/') ? { body: [] } : undefined));
    renderWithApp(<ProposalsDialog me={PILOT} onClose={() => {}} />, { trips: [] });
    expect(await screen.findByText('No proposals for your offers yet')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Sent' }));
    expect(await screen.findByText('You have not proposed a swap yet')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Agreed' }));
    expect(await screen.findByText('No agreed swaps yet')).toBeInTheDocument();
  });

  it("shows crewing's decision, never a button to record it: 'Waiting for crewing', 'Refused by crewing: <reason>'", async () => {
    const other = { ...PILOT, id: '33333333-3333-4333-8333-333333333333', firstName: 'Olga', lastName: 'Owner' };
    const agreement = (id: string, status: SwapAgreement['status'], reason: string | null): SwapAgreement => ({
      id,
      proposalId: id,
      status,
      kind: 'swap',
      reason,
      proposer: { pilot: PILOT, trip: makeTrip() },
      owner: { pilot: other, trip: makeTrip({ id: '55555555-5555-4555-8555-555555555555', pilotId: other.id, flightNoStart: 'VS003', flightNoEnd: 'VS004' }) },
      agreedAt: '2026-11-28T09:00:00.000Z',
      closedAt: null,
      closedBy: null,
    });
    const agreements = [agreement('66666666-6666-4666-8666-666666666666', 'agreed', null), agreement('77777777-7777-4777-8777-777777777777', 'refused', 'Not enough rest')];
    stubFetch((call) => (call.path === '/api/swaps/agreements' ? { body: agreements } : call.path.startsWith('/api/swaps/') ? { body: [] } : undefined));
    renderWithApp(<ProposalsDialog me={PILOT} onClose={() => {}} />, { trips: [] });
    fireEvent.click(screen.getByRole('tab', { name: 'Agreed' }));
    expect(await screen.findByText('Waiting for crewing')).toBeInTheDocument();
    expect(screen.getByText('Refused by crewing: Not enough rest')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /by crewing/i })).toBeNull();
  });
});
