import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BellEntry } from '@crewswap/proto';
import { renderWithApp, stubFetch } from '../../../test/render';
import { BellButton } from './BellButton';
import BellList from './BellList';

afterEach(() => vi.unstubAllGlobals());

const entry = (id: string, reason: BellEntry['reason'], title: string, read = false): BellEntry => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  reason,
  title,
  body: 'Ann Offerer offers VS881/VS882 JFK (A350), 2026-09-01 to 2026-09-03',
  url: reason === 'proposal' ? '/?view=proposals' : '/',
  createdAt: '2026-08-30T21:15:00.000Z',
  read,
});

const ENTRIES = [
  entry('1', 'wish', 'Swap offer for your wish JFK, BOS (2026-09-01 to 2026-09-10)'),
  entry('2', 'urgent', 'Urgent: new swap offer'),
  entry('3', 'proposal', 'New swap proposal', true),
  entry('4', 'roster_change', 'A trip you were looking at is no longer offered', true),
];

/** The notifications service's bell: `entries` as stored; read marks them and answers the count left. */
function bellServer(entries: BellEntry[]) {
  let stored = entries;
  const unread = () => stored.filter((e) => !e.read).length;
  return stubFetch((call) => {
    if (call.path === '/api/notifications/bell' && call.method === 'GET') return { body: { entries: stored, unread: unread() } };
    if (call.path === '/api/notifications/bell/read' && call.method === 'POST') {
      const ids = (call.body as { ids: string[] }).ids;
      stored = stored.map((e) => (ids.includes(e.id) ? { ...e, read: true } : e));
      return { body: { unread: unread() } };
    }
    return undefined;
  });
}

describe('the bell', () => {
  it('shows how many alerts are unread on the header’s bell, and no count when all are read', async () => {
    bellServer(ENTRIES);
    const { unmount } = renderWithApp(<BellButton onClick={() => {}} />);
    expect(await screen.findByRole('button', { name: 'Alerts, 2 unread' })).toHaveTextContent('2');
    unmount();

    bellServer(ENTRIES.map((e) => ({ ...e, read: true })));
    renderWithApp(<BellButton onClick={() => {}} />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Alerts' })).toHaveTextContent(''));
  });

  it('lists alerts with their reason (wish, urgent, proposal, roster change), the wish named in the alert', async () => {
    bellServer(ENTRIES);
    renderWithApp(<BellList onClose={() => {}} onPreferences={() => {}} onFollow={() => {}} />);
    const list = await screen.findByRole('list', { name: 'Alerts' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getAllByText(/^(Wish|Urgent|Proposal|Roster change|Swap offer)$/)[0]!.textContent)).toEqual([
      'Wish',
      'Urgent',
      'Proposal',
      'Roster change',
    ]);
    expect(items[0]).toHaveTextContent('Swap offer for your wish JFK, BOS (2026-09-01 to 2026-09-10)');
    expect(items[0]).toHaveTextContent('Ann Offerer offers VS881/VS882 JFK');
  });

  it('marks the alerts it shows read on every device when opened; they stay marked New until it is closed', async () => {
    const { calls } = bellServer(ENTRIES);
    const { queryClient } = renderWithApp(<BellList onClose={() => {}} onPreferences={() => {}} onFollow={() => {}} />);
    const list = await screen.findByRole('list', { name: 'Alerts' });
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/notifications/bell/read')).toHaveLength(1));
    expect(calls.find((c) => c.path === '/api/notifications/bell/read')?.body).toEqual({ ids: [ENTRIES[0]!.id, ENTRIES[1]!.id] });
    // The header's count follows at once; what was new is still told apart while the list is open.
    await waitFor(() => expect(queryClient.getQueryData<{ unread: number }>(['notifications', 'bell'])?.unread).toBe(0));
    expect(within(list).getAllByText('New')).toHaveLength(2);
  });

  it('marks nothing when every alert is already read, and says so when there are none', async () => {
    const { calls } = bellServer([]);
    renderWithApp(<BellList onClose={() => {}} onPreferences={() => {}} onFollow={() => {}} />);
    expect(await screen.findByText('No alerts yet')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/notifications/bell/read')).toBe(false);
  });

  it('opens Notification Preferences from the top of the list, and an alert leads where its push would', async () => {
    bellServer(ENTRIES);
    const onPreferences = vi.fn();
    const onFollow = vi.fn();
    renderWithApp(<BellList onClose={() => {}} onPreferences={onPreferences} onFollow={onFollow} />);
    fireEvent.click(await screen.findByRole('button', { name: /Notification Preferences/ }));
    expect(onPreferences).toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: /New swap proposal/ }));
    expect(onFollow).toHaveBeenCalledWith('/?view=proposals');
  });
});
