import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActiveSessions } from '@crewswap/proto';
import { renderWithApp, stubFetch } from '../../../../test/render';
import SessionsPanel from '../panels/sessions/SessionsPanel';

afterEach(() => vi.unstubAllGlobals());

const DOWN = 'The auth service is not available right now. Please try again shortly.';
const ACTIVE: ActiveSessions = {
  activeCount: 1,
  uniquePilots: 1,
  activePilots: [{ id: '11111111-1111-4111-8111-111111111111', firstName: 'Erin', lastName: 'Tester', employeeId: '123456', rank: 'FO', fleet: 'A350', loginTime: '2026-11-28T08:00:00Z', lastActivity: '2026-11-28T08:05:00Z' }],
};

describe('a console table whose call failed', () => {
  it("says it failed and why in place of its rows, shows a dash instead of a count of 0, and loads on 'Try Again'", async () => {
    let serviceUp = false;
    stubFetch((call) => {
      if (call.path !== '/api/admin/sessions/active') return undefined;
      return serviceUp ? { body: ACTIVE } : { status: 503, body: { error: DOWN } };
    });
    renderWithApp(<SessionsPanel />);
    expect(await screen.findByRole('alert')).toHaveTextContent(`Failed to load: ${DOWN}`);
    expect(screen.queryByText('No active sessions')).not.toBeInTheDocument();
    for (const title of ['Active Sessions', 'Unique Pilots']) {
      const card = screen.getByText(title).closest('.ant-statistic') as HTMLElement;
      expect(within(card).getByText('—')).toBeInTheDocument();
      expect(within(card).queryByText('0')).not.toBeInTheDocument();
    }
    serviceUp = true;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('FO Erin Tester')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
