import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CrewMember, UsualRequestsResponse } from '@crewswap/proto';
import { PILOT, renderWithApp, stubFetch, typeDate } from '../../../test/render';
import TripSearchDialog from './TripSearchDialog';
import { padSearchFlight, shapeSearchFlight } from './tripSearch';

afterEach(() => vi.unstubAllGlobals());

const iata = () => ({ body: [{ iataCode: 'LHR' }, { iataCode: 'JFK' }, { iataCode: 'LAX' }] });

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

const CREW: CrewMember = {
  id: '33333333-3333-4333-8333-333333333333',
  employeeId: '654321',
  firstName: 'Sam',
  lastName: 'Pilot',
  email: 'sam.pilot@fly.virgin.com',
  phone: '+447700900555',
  rank: 'CP',
  fleet: 'A350',
  base: 'LHR',
  apic: true,
  ltc: true,
  tripId: '44444444-4444-4444-8444-444444444444',
  isSwappable: true,
  training: false,
  requested: false,
  companions: null,
};

describe('Trip Search (Usual Requests)', () => {
  it('shapes the flight number: forced uppercase, VS then digits only, max 5 chars, zero-padded on blur', () => {
    expect(shapeSearchFlight('vs12')).toBe('VS12');
    expect(shapeSearchFlight('12')).toBe('VS12');
    expect(shapeSearchFlight('vs1a2345')).toBe('VS123');
    expect(shapeSearchFlight('v')).toBe('V');
    expect(padSearchFlight('VS7')).toBe('VS007');
    expect(padSearchFlight('VS')).toBe('');

    stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripSearchDialog pilot={PILOT} onClose={() => {}} />);
    fill('Flight Number', 'vs7');
    fireEvent.blur(screen.getByLabelText('Flight Number'));
    expect((screen.getByLabelText('Flight Number') as HTMLInputElement).value).toBe('VS007');
    fill('Airport / Route', 'lhrjfk');
    expect((screen.getByLabelText('Airport / Route') as HTMLInputElement).value).toBe('LHR-JFK');
  });

  it('says Search Criteria Required when neither a flight number nor an airport is given', async () => {
    const { calls } = stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripSearchDialog pilot={PILOT} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('Search Criteria Required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a complete flight number (VS + exactly 3 digits) and/or valid airport/route to search.')).toBeInTheDocument();
    expect(calls.some((call) => call.path.startsWith('/api/usual-requests'))).toBe(false);
  });

  it('says Incomplete Flight Number for VS without 3 digits, and Invalid Route Format for a half route', async () => {
    stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripSearchDialog pilot={PILOT} onClose={() => {}} />);
    fill('Flight Number', 'VS12');
    fireEvent.keyDown(screen.getByLabelText('Flight Number'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('Incomplete Flight Number')).toBeInTheDocument();
    expect(screen.getByText('Flight number must be VS + exactly 3 digits (e.g. VS123).')).toBeInTheDocument();
    fill('Flight Number', '');
    fill('Airport / Route', 'LHRJF');
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('Invalid Route Format')).toBeInTheDocument();
    expect(screen.getByText('Route must be either a 3-letter airport code (e.g. LHR) or route format (e.g. LHR-JFK).')).toBeInTheDocument();
  });

  it('names an airport code that is not in the IATA list', async () => {
    const { calls } = stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripSearchDialog pilot={PILOT} onClose={() => {}} />);
    await waitFor(() => expect(calls.some((call) => call.path === '/api/iata-codes')).toBe(true));
    fill('Airport / Route', 'XQZ');
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('Invalid Airport Code')).toBeInTheDocument();
    expect(screen.getByText('XQZ is not a valid IATA airport code in our database.')).toBeInTheDocument();
  });

  it('says Date Required without a date', async () => {
    stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripSearchDialog pilot={PILOT} onClose={() => {}} />);
    fill('Flight Number', '123');
    typeDate('Date', '');
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('Date Required')).toBeInTheDocument();
    expect(screen.getByText('Please select a date to search.')).toBeInTheDocument();
  });

  it('searches and lists the trips with expandable crew (WhatsApp contact) and duty details', async () => {
    const answer: UsualRequestsResponse = {
      results: [
        { flightNoStart: 'VS003', flightNoEnd: 'VS004', route: 'JFK', aircraft: 'A350', startDate: '2099-03-10', endDate: '2099-03-12', icsDescription: null, crew: [CREW] },
      ],
      title: null,
      message: null,
    };
    const { calls } = stubFetch((call) => {
      if (call.path === '/api/iata-codes') return iata();
      if (call.path.startsWith('/api/usual-requests/search')) return { body: answer };
      return undefined;
    });
    renderWithApp(<TripSearchDialog pilot={PILOT} onClose={() => {}} />);
    fill('Flight Number', '3');
    fireEvent.blur(screen.getByLabelText('Flight Number'));
    typeDate('Date', '2099-03-10');
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    const head = await screen.findByText('VS003/VS004 JFK');
    expect(calls.find((call) => call.path.startsWith('/api/usual-requests'))?.path).toBe('/api/usual-requests/search?date=2099-03-10&flightNumber=VS003');
    fireEvent.click(head);
    const chat = await screen.findByRole('link', { name: 'WhatsApp Sam Pilot' });
    expect(chat.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/447700900555\?text=Hi%20Sam%2C%20this%20is%20FO%20Erin%20Tester/);
    expect(screen.getByText('No duty information available')).toBeInTheDocument();
  });

  it('shows No Results when nothing matches', async () => {
    stubFetch((call) => {
      if (call.path === '/api/iata-codes') return iata();
      if (call.path.startsWith('/api/usual-requests/search'))
        return { body: { results: [], title: 'No Results', message: 'No trips found in the system that are accepting usual requests.' } };
      return undefined;
    });
    renderWithApp(<TripSearchDialog pilot={PILOT} onClose={() => {}} />);
    fill('Airport / Route', 'JFK');
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('No trips found in the system that are accepting usual requests.')).toBeInTheDocument();
  });

  it('is Not Available with Master Roster off', () => {
    stubFetch(() => undefined);
    renderWithApp(<TripSearchDialog pilot={{ ...PILOT, usualReq: false }} onClose={() => {}} />);
    expect(screen.getByText('Not Available')).toBeInTheDocument();
    expect(screen.getByText(/Please enable Master Roster in your profile settings/)).toBeInTheDocument();
  });
});
