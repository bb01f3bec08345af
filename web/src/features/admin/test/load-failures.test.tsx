import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../../test/render';
import { useLoadFailuresTold } from '../api/loadFailures';
import AnalyticsPanel from '../panels/analytics/AnalyticsPanel';

afterEach(() => vi.unstubAllGlobals());

const DOWN = 'The admin service is not available right now. Please try again shortly.';

function Console() {
  useLoadFailuresTold();
  return <AnalyticsPanel />;
}

describe('the console when something cannot be loaded', () => {
  it('Trip Analytics says it failed and why, not "No analytics data available", and a toast tells the admin', async () => {
    stubFetch((call) => (call.path === '/api/admin/analytics' ? { status: 503, body: { error: DOWN } } : undefined));
    renderWithApp(<Console />);
    expect(await screen.findByRole('alert')).toHaveTextContent(`Failed to load analytics: ${DOWN}`);
    expect(screen.queryByText('No analytics data available')).not.toBeInTheDocument();
    expect(await screen.findByText('Failed to Load')).toBeInTheDocument();
  });

  it('an ended admin session is not told as a failure to load (the console goes to its login)', async () => {
    stubFetch((call) => (call.path === '/api/admin/analytics' ? { status: 401, body: { error: 'Session expired' } } : undefined));
    renderWithApp(<Console />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load analytics: Session expired');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('Failed to Load')).not.toBeInTheDocument();
  });
});
