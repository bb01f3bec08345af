import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { createQueryClient } from '../src/api/queryClient';
import { PILOT, stubFetch } from './render';

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.pushState({}, '', '/');
});

describe('routes', () => {
  it('any other path shows Page Not Found', async () => {
    stubFetch(() => undefined);
    window.history.pushState({}, '', '/somewhere-else');
    render(<App queryClient={createQueryClient()} />);
    expect(await screen.findByText('Page Not Found')).toBeInTheDocument();
  });

  it('the access code path shows the daily access code to a signed-in visitor; the same path without one is Page Not Found', async () => {
    const { calls } = stubFetch((call) =>
      call.path === `/api/access-code?path=${encodeURIComponent('/crew-access')}` ? { body: { code: '551177', updatedAt: '2026-11-26T08:30:00.000Z' } } : undefined,
    );
    window.history.pushState({}, '', '/crew-access');
    const first = render(<App queryClient={createQueryClient()} />);
    expect(await screen.findByText('Daily Access Code')).toBeInTheDocument();
    expect(screen.getByText('551177')).toBeInTheDocument();
    // A date in numbers is MM/dd/yyyy (admin spec section 9).
    expect(screen.getByText(/Updated 11\/26\/2026 08:30 UTC/)).toBeInTheDocument();
    expect(calls.some((call) => call.path.startsWith('/api/access-code'))).toBe(true);
    first.unmount();

    stubFetch((call) => (call.path.startsWith('/api/access-code') ? { status: 401, body: { error: 'Session expired' } } : undefined));
    render(<App queryClient={createQueryClient()} />);
    expect(await screen.findByText('Page Not Found')).toBeInTheDocument();
    expect(screen.queryByText('551177')).not.toBeInTheDocument();
  });

  it('/admin-preview opens the admin console (its login screen, Admin Portal, without an admin session)', async () => {
    stubFetch((call) => (call.path === '/api/admin/current' ? { status: 401, body: { error: 'Not signed in' } } : undefined));
    window.history.pushState({}, '', '/admin-preview');
    render(<App queryClient={createQueryClient()} />);
    expect(await screen.findByText('Admin Portal')).toBeInTheDocument();
    expect(window.location.pathname).toMatch(/^\/admin/);
    expect(screen.queryByText('Page Not Found')).not.toBeInTheDocument();
  });

  it('/upload-roster shows the login page when the current-pilot call fails', async () => {
    stubFetch((call) => (call.path === '/api/pilot/current' ? { status: 500, body: { error: 'down' } } : undefined));
    window.history.pushState({}, '', '/upload-roster');
    render(<App queryClient={createQueryClient()} />);
    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
  });

  it('/ shows the trips page to a signed-in pilot', async () => {
    stubFetch((call) => {
      if (call.path === '/api/pilot/current') return { body: PILOT };
      if (call.path === '/api/trips') return { body: [] };
      return undefined;
    });
    render(<App queryClient={createQueryClient()} />);
    expect(await screen.findByText('No trips yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Edit My Details: FO Erin Tester APIC A350/ })).toBeInTheDocument();
  });
});
