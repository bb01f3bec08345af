import { onlineManager } from '@tanstack/react-query';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PILOT, renderWithApp, stubFetch } from '../../../test/render';
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
});
