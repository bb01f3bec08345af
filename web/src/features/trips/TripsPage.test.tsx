import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PILOT, renderWithApp, stubFetch } from '../../../test/render';
import { TripsPage } from './TripsPage';

afterEach(() => vi.unstubAllGlobals());

describe('main trips page', () => {
  it("unauthenticated text: 'Please log in to view your trips.'", async () => {
    stubFetch((call) => (call.path === '/api/trips' ? { status: 401, body: { error: 'Session expired' } } : undefined));
    renderWithApp(<TripsPage pilot={PILOT} />);
    expect(await screen.findByText('Please log in to view your trips.')).toBeInTheDocument();
    expect(screen.queryByText(/Failed to load trips/)).not.toBeInTheDocument();
  });

  it("loading text 'Loading your trips...', and another failure is told as such", async () => {
    stubFetch((call) => (call.path === '/api/trips' ? { status: 500, body: { error: 'Database unavailable' } } : undefined));
    renderWithApp(<TripsPage pilot={PILOT} />);
    expect(screen.getByText('Loading your trips...')).toBeInTheDocument();
    expect(await screen.findByText('Failed to load trips: Database unavailable')).toBeInTheDocument();
  });
});
