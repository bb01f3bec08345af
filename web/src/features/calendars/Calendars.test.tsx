import { onlineManager } from '@tanstack/react-query';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { useState } from 'react';
import type { CrossoverTripsResponse, MasterCalendarResponse, Trip } from '@crewswap/proto';
import { makeTrip, PILOT, renderWithApp, stubFetch } from '../../../test/render';
import Calendars from './Calendars';

afterEach(() => vi.unstubAllGlobals());

const today = londonToday();
const TRIP = makeTrip({ startDate: addDays(today, 3), endDate: addDays(today, 5), route: 'JFK' });

describe('Calendars', () => {
  it("Master and Crossover Calendars are 'Not Available' with Master Roster off; the Swap Calendar stays", async () => {
    stubFetch(() => ({ body: [] }));
    const off = { ...PILOT, usualReq: false };
    const first = renderWithApp(<Calendars pilot={off} trips={[TRIP]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Master Calendar/ }));
    expect(await screen.findByText('Not Available')).toBeInTheDocument();
    expect(screen.getByText(/Please enable Master Roster in your profile settings/)).toBeInTheDocument();
    first.unmount();

    const second = renderWithApp(<Calendars pilot={off} trips={[TRIP]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Crossover Calendar/ }));
    expect(await screen.findByText('Not Available')).toBeInTheDocument();
    second.unmount();

    renderWithApp(<Calendars pilot={off} trips={[TRIP]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Swap Calendar/ }));
    expect(await screen.findByRole('grid', { name: 'Swap Calendar' })).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: /My trips/ })).toBeInTheDocument();
  });

  it('offline, Refresh is disabled and says it needs a connection: nothing is asked for later without a word', async () => {
    stubFetch(() => ({ body: [] }));
    onlineManager.setOnline(false);
    try {
      renderWithApp(<Calendars pilot={PILOT} trips={[TRIP]} onClose={() => {}} />);
      fireEvent.click(screen.getByRole('button', { name: /Swap Calendar/ }));
      const refresh = await screen.findByRole('button', { name: /Refresh/ });
      expect(refresh).toBeDisabled();
      expect(refresh).toHaveAttribute('title', 'Needs a connection: you are offline.');
    } finally {
      onlineManager.setOnline(true);
    }
  });

  it('Master Calendar without trips asks for the roster instead', async () => {
    stubFetch(() => ({ body: [] }));
    renderWithApp(<Calendars pilot={PILOT} trips={[]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Master Calendar/ }));
    expect(await screen.findByText(/Email your roster calendar file/)).toBeInTheDocument();
  });

  it("a pilot who opens the Master Calendar before their trips have loaded waits for them, and is not told they have none", async () => {
    stubFetch((call) => (call.path.startsWith('/api/master-calendar/') ? { body: [] } : undefined));
    function TripsArriveLater() {
      const [trips, setTrips] = useState<Trip[] | undefined>(undefined);
      return (
        <>
          <button onClick={() => setTrips([TRIP])}>trips arrive</button>
          <Calendars pilot={PILOT} trips={trips} onClose={() => {}} />
        </>
      );
    }
    renderWithApp(<TripsArriveLater />);
    fireEvent.click(screen.getByRole('button', { name: /Master Calendar/ }));
    expect(await screen.findByText('Loading your trips...')).toBeInTheDocument();
    expect(screen.queryByText(/Email your roster calendar file/)).not.toBeInTheDocument();
    fireEvent.click(screen.getByText('trips arrive'));
    const grid = await screen.findByRole('grid', { name: 'Master Calendar' });
    expect(grid).toHaveTextContent('JFK');
  });

  it('a calendar opened while the trips failed to load says why', async () => {
    stubFetch(() => ({ body: [] }));
    renderWithApp(<Calendars pilot={PILOT} trips={undefined} tripsError={new Error('Network down')} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Crossover Calendar/ }));
    expect(await screen.findByText(/^Failed to load trips: /)).toBeInTheDocument();
    expect(screen.queryByText('Upload your roster to see crossover flights')).not.toBeInTheDocument();
  });

  it('offline, a calendar never opened online says it needs a connection instead of showing no one', async () => {
    const { calls } = stubFetch(() => ({ body: [] }));
    onlineManager.setOnline(false);
    renderWithApp(<Calendars pilot={PILOT} trips={[TRIP]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Master Calendar/ }));
    expect(await screen.findByText('Needs a connection: you are offline.')).toBeInTheDocument();
    expect(screen.getByText('The Master Calendar was not opened online on this device yet, so there is no copy to show.')).toBeInTheDocument();
    expect(screen.queryByRole('grid', { name: 'Master Calendar' })).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("Master Calendar: the own row first from the pilot's own trips, then the list everyone gets in its order", async () => {
    const slim = ({ id, flightNoStart, flightNoEnd, route, startDate, endDate, isSwappable, requested, training, isStandby }: typeof TRIP) => ({
      id, flightNoStart, flightNoEnd, route, startDate, endDate, isSwappable, requested, training, isStandby,
    });
    const other = (id: string, firstName: string, lastName: string, fleet: typeof PILOT.fleet) => ({ id, firstName, lastName, rank: PILOT.rank, fleet });
    // The shared list holds the caller where their name sorts, with a trip the app no longer holds.
    const stale = makeTrip({ startDate: addDays(today, 8), endDate: addDays(today, 9), route: 'LAX' });
    const list: MasterCalendarResponse = [
      { pilot: other('00000000-0000-4000-8000-0000000000a1', 'Amy', 'Abbot', PILOT.fleet), trip: slim(makeTrip({ startDate: addDays(today, 1), endDate: addDays(today, 2), route: 'BOS' })) },
      { pilot: { id: PILOT.id, firstName: PILOT.firstName, lastName: PILOT.lastName, rank: PILOT.rank, fleet: PILOT.fleet }, trip: slim(stale) },
      { pilot: other('00000000-0000-4000-8000-0000000000a2', 'Zoe', 'Young', PILOT.fleet), trip: slim(makeTrip({ startDate: addDays(today, 2), endDate: addDays(today, 4), route: 'SFO' })) },
    ];
    stubFetch((call) => (call.path.startsWith('/api/master-calendar/') ? { body: list } : undefined));
    renderWithApp(<Calendars pilot={PILOT} trips={[TRIP]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Master Calendar/ }));
    const grid = await screen.findByRole('grid', { name: 'Master Calendar' });
    await screen.findByRole('rowheader', { name: /Amy Abbot/ });
    const labels = screen.getAllByRole('rowheader').map((header) => header.textContent ?? '');
    expect(labels.map((label) => label.split(PILOT.rank)[0])).toEqual(['Me', 'Amy Abbot', 'Zoe Young']);
    expect(grid).toHaveTextContent('JFK');
    expect(grid).not.toHaveTextContent('LAX');
  });

  it("tapping another pilot's bar in the Master Calendar opens the pilot contact view: name, rank, fleet, email, phone and WhatsApp", async () => {
    const amy = { id: '00000000-0000-4000-8000-0000000000a1', firstName: 'Amy', lastName: 'Abbot', rank: PILOT.rank, fleet: PILOT.fleet };
    const theirs = makeTrip({ id: '00000000-0000-4000-8000-0000000000b1', startDate: addDays(today, 1), endDate: addDays(today, 2), route: 'BOS' });
    const list: MasterCalendarResponse = [
      {
        pilot: amy,
        trip: { id: theirs.id, flightNoStart: 'VS011', flightNoEnd: 'VS012', route: 'BOS', startDate: theirs.startDate, endDate: theirs.endDate, isSwappable: false, requested: false, training: false, isStandby: false },
      },
    ];
    const contact = { ...amy, employeeId: '300003', email: 'amy.abbot@fly.virgin.com', phone: '+447700900444', base: 'LHR', apic: true, ltc: false };
    const { calls } = stubFetch((call) => {
      if (call.path === `/api/master-calendar/pilots/${amy.id}`) return { body: contact };
      if (call.path.startsWith('/api/master-calendar/')) return { body: list };
      return undefined;
    });
    renderWithApp(<Calendars pilot={PILOT} trips={[TRIP]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Master Calendar/ }));
    fireEvent.click(await screen.findByRole('gridcell', { name: /VS011\/VS012 BOS/ }));
    expect(await screen.findByText('amy.abbot@fly.virgin.com')).toBeInTheDocument();
    const view = screen.getByText('Pilot Contact').closest('[role="dialog"]') as HTMLElement;
    expect(view).toHaveTextContent('Amy Abbot');
    expect(view).toHaveTextContent('First Officer');
    expect(view).toHaveTextContent(PILOT.fleet);
    expect(view).toHaveTextContent('+447700900444');
    expect(decodeURIComponent(screen.getByRole('link', { name: /Chat on WhatsApp/ }).getAttribute('href')!)).toMatch(/^https:\/\/wa\.me\/447700900444\?text=Hi Amy/);
    // The own row's bars open nothing.
    expect(screen.queryByRole('button', { name: /JFK/ })).not.toBeInTheDocument();
    expect(calls.filter((call) => call.path.startsWith('/api/master-calendar/pilots/'))).toHaveLength(1);
  });

  it("Crossover Calendar: 'Upload your roster to see crossover flights', 'No crossover flights found', and groups with pilot counts", async () => {
    let groups: CrossoverTripsResponse = [];
    stubFetch((call) => (call.path === '/api/crossover-trips' ? { body: groups } : undefined));
    const first = renderWithApp(<Calendars pilot={PILOT} trips={[]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Crossover Calendar/ }));
    expect(await screen.findByText('Upload your roster to see crossover flights')).toBeInTheDocument();
    first.unmount();

    const second = renderWithApp(<Calendars pilot={PILOT} trips={[TRIP]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Crossover Calendar/ }));
    expect(await screen.findByText('No crossover flights found')).toBeInTheDocument();
    second.unmount();

    groups = [
      {
        flightNumber: 'VS025',
        flightNumberEnd: 'VS026',
        destination: 'JFK',
        aircraft: 'A350',
        startDate: addDays(today, 4),
        endDate: addDays(today, 6),
        crossesTripIds: [TRIP.id],
        pilots: [],
      },
    ];
    renderWithApp(<Calendars pilot={PILOT} trips={[TRIP]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Crossover Calendar/ }));
    expect(await screen.findByRole('rowheader', { name: /VS025\/VS026 JFK/ })).toBeInTheDocument();
    expect(screen.getByRole('gridcell', { name: /VS025\/VS026 JFK .*: 0 pilots/ })).toHaveTextContent('0 pilots');
  });
});
