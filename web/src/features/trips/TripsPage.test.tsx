import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '@crewswap/proto/browser';
import { makeTrip, PILOT, renderWithApp, stubFetch } from '../../../test/render';
import { rememberChangedTrips } from '../../shared/changedTrips';
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

  it("highlights the trips a roster changed ('Changed by roster') until the pilot has seen them (the page left)", async () => {
    const changed = makeTrip({ id: '0b1b255d-e5df-4f1e-93cc-92a59b076d04', flightNoStart: 'VS023', flightNoEnd: 'VS024', source: 'upload' });
    const other = makeTrip({ id: '1b1b255d-e5df-4f1e-93cc-92a59b076d04', flightNoStart: 'VS025', flightNoEnd: 'VS026', startDate: '2027-02-01', endDate: '2027-02-03', source: 'upload' });
    rememberChangedTrips([changed.id]);
    stubFetch((call) => (call.path === '/api/trips' ? { body: [changed, other] } : undefined));
    const { unmount } = renderWithApp(<TripsPage pilot={PILOT} />);
    const card = (await screen.findByText('VS023/VS024')).closest('article')!;
    expect(card).toHaveClass('changed');
    expect(card).toHaveTextContent('Changed by roster');
    const otherCard = screen.getByText('VS025/VS026').closest('article')!;
    expect(otherCard).not.toHaveClass('changed');
    expect(screen.getAllByText('Changed by roster')).toHaveLength(1);
    unmount();
    expect(localStorage.getItem('crewswap.changed-trips')).toBeNull();
  });
  it('forty trips: a screen of cards at first, then more as the end of the list comes near view; without IntersectionObserver, all of them', async () => {
    const trips = Array.from({ length: 40 }, (_, index) => {
      const start = addDays('2027-01-01', index * 2);
      const number = 100 + index * 2;
      return makeTrip({ id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, flightNoStart: `VS${number}`, flightNoEnd: `VS${number + 1}`, startDate: start, endDate: addDays(start, 1) });
    });
    stubFetch((call) => (call.path === '/api/trips' ? { body: trips } : undefined));
    // The browser's observer, told by the test when the list's end comes near view.
    const observers: { report: (near: boolean) => void; watching: Element[] }[] = [];
    class NearView {
      watching: Element[] = [];
      constructor(private readonly callback: IntersectionObserverCallback) {
        observers.push(this);
      }
      observe(element: Element) {
        this.watching.push(element);
      }
      disconnect() {
        this.watching = [];
      }
      report(near: boolean) {
        this.callback(this.watching.map((target) => ({ target, isIntersecting: near }) as IntersectionObserverEntry), this as unknown as IntersectionObserver);
      }
    }
    vi.stubGlobal('IntersectionObserver', NearView);
    const cards = () => document.querySelectorAll('article.trip-card').length;
    const first = renderWithApp(<TripsPage pilot={PILOT} />);
    await screen.findByText('VS100/VS101');
    expect(cards()).toBe(12);
    const watching = () => observers.filter((observer) => observer.watching.length > 0);
    await waitFor(() => expect(watching()).toHaveLength(1));
    act(() => watching()[0]!.report(false));
    expect(cards()).toBe(12);
    act(() => watching()[0]!.report(true));
    await waitFor(() => expect(cards()).toBe(24));
    first.unmount();

    vi.stubGlobal('IntersectionObserver', undefined);
    renderWithApp(<TripsPage pilot={PILOT} />);
    await waitFor(() => expect(cards()).toBe(40));
  });
});
