import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { createQueryClient } from '../src/api/queryClient';
import { stubFetch } from './render';
import { MASTER, OPS } from '../src/features/admin/test/fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.pushState({}, '', '/');
});

const analytics = { pilots: { total: 3 }, trips: { total: 9, swapOffers: 2 }, fleets: [], total: { CP: { pilotCount: 0, totalTrips: 0, swapOffers: 0 }, FO: { pilotCount: 0, totalTrips: 0, swapOffers: 0 }, fleetTrips: 0, fleetSwaps: 0 } };

function openConsole(path: string, admin: typeof MASTER | null, more: (path: string) => { status?: number; body?: unknown } | undefined = () => undefined) {
  const stub = stubFetch((call) => {
    if (call.path === '/api/admin/current') return admin ? { body: admin } : { status: 401, body: { error: 'Session expired' } };
    if (call.path === '/api/admin/analytics') return { body: analytics };
    if (call.path === '/api/admin/sessions/active') return { body: { activeCount: 1, uniquePilots: 1, activePilots: [] } };
    if (call.path === '/api/admin/recent-registrations') return { body: { recentRegistrations: [] } };
    if (call.path === '/api/auth/config') return { body: { companyEmailDomain: 'fly.virgin.com', productName: 'CrewSwap' } };
    return more(call.path);
  });
  window.history.pushState({}, '', path);
  render(<App queryClient={createQueryClient()} />);
  return stub;
}

async function menuItems() {
  const menu = await screen.findByRole('menu');
  return Object.fromEntries(within(menu).getAllByRole('menuitem').map((item) => [item.textContent?.trim(), item.getAttribute('aria-disabled') !== 'true']));
}

describe('the admin menu follows the permissions', () => {
  it('a master admin may open every item', async () => {
    openConsole('/admin', MASTER);
    expect(await screen.findByText('CrewSwap Admin Panel')).toBeInTheDocument();
    expect(await menuItems()).toEqual({
      'Manage Pilots': true,
      'Swap Requests': true,
      Rosters: true,
      'IATA Codes': true,
      'Manage Admins': true,
      'System Settings': true,
      Security: true,
      'Data Cleanup': true,
    });
    expect(screen.getByText('Ada Master')).toBeInTheDocument();
    expect(screen.getByText('admin@crewswap.local')).toBeInTheDocument();
  });

  it('items without their permission are disabled and dimmed; Rosters needs none', async () => {
    openConsole('/admin', OPS);
    expect(await menuItems()).toEqual({
      'Manage Pilots': true,
      'Swap Requests': false,
      Rosters: true,
      'IATA Codes': false,
      'Manage Admins': false,
      'System Settings': false,
      Security: false,
      'Data Cleanup': false,
    });
    const dimmed = within(screen.getByRole('menu'))
      .getAllByRole('menuitem')
      .filter((item) => item.classList.contains('admin-menu-dimmed'))
      .map((item) => item.textContent);
    expect(dimmed).toEqual(['Swap Requests', 'IATA Codes', 'Manage Admins', 'System Settings', 'Security', 'Data Cleanup']);
  });

  it('an admin holding manage_swaps may open Swap Requests (the crewing desk)', async () => {
    openConsole('/admin', { ...OPS, permissions: ['manage_swaps'] });
    const items = await menuItems();
    expect(items['Swap Requests']).toBe(true);
    expect(items['Manage Pilots']).toBe(false);
  });

  it('a panel the admin may not open, reached by its address, goes back to the dashboard', async () => {
    const { calls } = openConsole('/admin/settings', OPS);
    await screen.findByText('Registrations');
    await waitFor(() => expect(window.location.pathname).toBe('/admin'));
    expect(screen.queryByRole('dialog', { name: 'System Settings' })).not.toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/admin/settings')).toBe(false);
  });

  it('the dashboard shows the totals and the offered count', async () => {
    openConsole('/admin', MASTER);
    expect(await screen.findByText('2 offered for swap')).toBeInTheDocument();
    expect(screen.getByText('No recent registrations available')).toBeInTheDocument();
  });
});

describe('admin session', () => {
  it('without an admin session /admin shows the Admin Portal login', async () => {
    openConsole('/admin', null);
    expect(await screen.findByText('Admin Portal', undefined, { timeout: 20_000 })).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/admin/login'));
  });

  it("says 'Loading admin panel...' while it asks who is signed in", async () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    window.history.pushState({}, '', '/admin');
    render(<App queryClient={createQueryClient()} />);
    expect(await screen.findByText('Loading admin panel...')).toBeInTheDocument();
  });

  it("an ended admin session (401) goes to /admin/login, not the pilot's /, and sets no pilot flag", async () => {
    openConsole('/admin/rosters', MASTER, (path) => (path.startsWith('/api/admin/roster-history') ? { status: 401, body: { error: 'Session expired' } } : undefined));
    expect(await screen.findByText('Admin Portal', undefined, { timeout: 20_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/admin/login');
    expect(sessionStorage.getItem('showSessionExpired')).toBeNull();
  });

  it('logout goes to /admin/login even when it fails', async () => {
    openConsole('/admin', MASTER, (path) => (path === '/api/admin/logout' ? { status: 500, body: { error: 'Logout failed' } } : undefined));
    const logout = await screen.findByRole('button', { name: /Logout/ });
    logout.click();
    expect(await screen.findByText('Admin Portal', undefined, { timeout: 20_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/admin/login');
  });
});
