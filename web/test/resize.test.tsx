import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { createQueryClient } from '../src/api/queryClient';
import { NARROW_QUERY } from '../src/shared/useIsNarrow';
import { AdminLayout } from '../src/features/admin/layout/AdminLayout';
import { EmergencyCard } from '../src/features/admin/panels/security/EmergencyCard';
import { MASTER } from '../src/features/admin/test/fixtures';
import { PILOT, renderWithApp, stubFetch } from './render';

/** A screen whose width can cross the phone breakpoint (768 px) while the app runs. */
function resizableScreen() {
  let narrow = false;
  type Listener = (event: { matches: boolean; media: string }) => void;
  const listeners = new Map<Listener, string>();
  const matches = (query: string) => (query === NARROW_QUERY ? narrow : false);
  const original = window.matchMedia;
  window.matchMedia = (query: string) =>
    ({
      get matches() {
        return matches(query);
      },
      media: query,
      onchange: null,
      addListener: (listener: Listener) => listeners.set(listener, query),
      removeListener: (listener: Listener) => listeners.delete(listener),
      addEventListener: (_type: string, listener: Listener) => listeners.set(listener, query),
      removeEventListener: (_type: string, listener: Listener) => listeners.delete(listener),
      dispatchEvent: () => false,
    }) as unknown as MediaQueryList;
  return {
    setNarrow(value: boolean) {
      narrow = value;
      act(() => {
        for (const [listener, query] of [...listeners]) listener({ matches: matches(query), media: query });
      });
    },
    restore: () => (window.matchMedia = original),
  };
}

/** A dialog by its title (jsdom gives nested antd dialogs one label id, so not by role name). */
async function dialogTitled(title: string): Promise<HTMLElement> {
  return (await screen.findByText(title)).closest('[role="dialog"]') as HTMLElement;
}

let screenSize: ReturnType<typeof resizableScreen>;
beforeEach(() => {
  screenSize = resizableScreen();
});
afterEach(() => {
  screenSize.restore();
  vi.unstubAllGlobals();
  window.history.pushState({}, '', '/');
});

describe('dialogs survive a width change', () => {
  it('the admin console keeps its open panel and the EMERGENCY confirmation, with what was typed, across the phone breakpoint', async () => {
    stubFetch((call) => {
      if (call.path === '/api/admin/emergency-status') return { body: { isShutdown: false } };
      if (call.path === '/api/auth/config') return { body: { companyEmailDomain: 'fly.virgin.com', productName: 'CrewSwap' } };
      return undefined;
    });
    // The console's layout around an open panel: the layout is what changes with the width.
    renderWithApp(
      <AdminLayout admin={MASTER}>
        <EmergencyCard />
      </AdminLayout>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Emergency Shutdown' }, { timeout: 15_000 }));
    const dialog = await dialogTitled('Confirm Emergency Shutdown');
    fireEvent.change(within(dialog).getByLabelText('Type EMERGENCY to confirm'), { target: { value: 'EMERG' } });

    screenSize.setNarrow(true);
    expect(screen.getByRole('navigation', { name: 'Admin menu' })).toBeInTheDocument();
    expect(await dialogTitled('Confirm Emergency Shutdown')).toBe(dialog);
    expect(within(dialog).getByLabelText('Type EMERGENCY to confirm')).toHaveValue('EMERG');

    screenSize.setNarrow(false);
    expect(within(await dialogTitled('Confirm Emergency Shutdown')).getByLabelText('Type EMERGENCY to confirm')).toHaveValue('EMERG');
  }, 90_000);

  it('the pilot app keeps an open dialog and its typed text across the phone breakpoint', async () => {
    stubFetch((call) => {
      if (call.path === '/api/pilot/current') return { body: PILOT };
      if (call.path === '/api/trips') return { body: [] };
      return undefined;
    });
    render(<App queryClient={createQueryClient()} />);
    fireEvent.click((await screen.findAllByRole('button', { name: /Add Trip/ }, { timeout: 15_000 }))[0]!);
    const route = await screen.findByLabelText('Route', {}, { timeout: 15_000 });
    fireEvent.change(route, { target: { value: 'JFK' } });

    screenSize.setNarrow(true);
    expect(screen.getByLabelText('Route')).toHaveValue('JFK');
    screenSize.setNarrow(false);
    expect(screen.getByLabelText('Route')).toHaveValue('JFK');
  }, 90_000);
});
