import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../test/render';
import RosterAddressSection from './RosterAddressSection';

afterEach(() => vi.unstubAllGlobals());

const ADDRESS = 'webcal://crew.example-airline.test/roster/abc.ics';

describe('Roster address', () => {
  it('saves the address, shows the result like an upload, then the last fetch', async () => {
    let saved = false;
    const { calls } = stubFetch((call) => {
      if (call.path !== '/api/roster/subscription') return undefined;
      if (call.method === 'PUT') {
        saved = true;
        return { body: { url: ADDRESS, lastFetchedAt: '2026-12-01T09:10:00.000Z', lastStatus: 'ok', nextFetchAt: '2026-12-01T10:20:00.000Z', result: { message: '1 added, 1 changed, 1 removed', changes: [] } } };
      }
      return saved ? { body: { url: ADDRESS, lastFetchedAt: '2026-12-01T09:10:00.000Z', lastStatus: 'ok', nextFetchAt: '2026-12-01T10:20:00.000Z' } } : { status: 404, body: { error: 'You have no roster address.' } };
    });
    renderWithApp(<RosterAddressSection />);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Roster address' }), { target: { value: ` ${ADDRESS} ` } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('1 added, 1 changed, 1 removed')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ url: ADDRESS });
    expect(await screen.findByText(/Last fetched .*: imported\. Next fetch/)).toBeInTheDocument();
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
