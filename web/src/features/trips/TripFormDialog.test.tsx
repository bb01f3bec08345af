import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, londonToday } from '@crewswap/proto/browser';
import { makeTrip, PILOT, renderWithApp, stubFetch, typeDate } from '../../../test/render';
import TripFormDialog from './TripFormDialog';

const iata = () => ({ body: ['JFK', 'LAX', 'SFO'] });

afterEach(() => vi.unstubAllGlobals());

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('Add New Trip', () => {
  it('shapes flight numbers (digits only, max 3, padded on blur) and routes (LAXSFO shows LAX-SFO)', async () => {
    stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripFormDialog pilot={PILOT} onClose={() => {}} />);
    const start = screen.getByLabelText('Start Flight') as HTMLInputElement;
    fill('Start Flight', 'a12345');
    expect(start.value).toBe('123');
    fill('End Flight', '7');
    fireEvent.blur(screen.getByLabelText('End Flight'));
    expect((screen.getByLabelText('End Flight') as HTMLInputElement).value).toBe('007');
    fill('Route', 'laxsfo');
    expect((screen.getByLabelText('Route') as HTMLInputElement).value).toBe('LAX-SFO');
  });

  it('Add Trip stays disabled until everything is set, and the single aircraft is chosen for the pilot', async () => {
    stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripFormDialog pilot={PILOT} onClose={() => {}} />);
    const add = screen.getByRole('button', { name: 'Add Trip' });
    expect(add).toBeDisabled();
    fill('Start Flight', '007');
    fill('End Flight', '008');
    fill('Route', 'JFK');
    typeDate('Start Date', addDays(londonToday(), 5));
    typeDate('End Date', addDays(londonToday(), 6));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add Trip' })).toBeEnabled());
  });

  it('names an unknown airport code and offers to add it', async () => {
    stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripFormDialog pilot={PILOT} onClose={() => {}} />);
    await waitFor(() => expect(screen.getByLabelText('Route')).toBeInTheDocument());
    fill('Route', 'laxxyz');
    expect(await screen.findByText('Invalid airport code(s): XYZ (not in IATA database)')).toBeInTheDocument();
    fireEvent.blur(screen.getByLabelText('Route'));
    expect(await screen.findByText('Confirm Valid Airport')).toBeInTheDocument();
  });

  it('falls back to the built-in airport list when the list cannot be fetched', async () => {
    stubFetch(() => ({ status: 500, body: { error: 'down' } }));
    renderWithApp(<TripFormDialog pilot={PILOT} onClose={() => {}} />);
    expect(await screen.findByText(/checking routes against common airports only/)).toBeInTheDocument();
    fill('Route', 'LHRJFK');
    expect(screen.queryByText(/not in IATA database/)).not.toBeInTheDocument();
    // A code the built-in list does not hold cannot be judged: the spec's message, not 'invalid'.
    fill('Route', 'XYZ');
    fireEvent.blur(screen.getByLabelText('Route'));
    expect(await screen.findByText('Unable to validate route at this time')).toBeInTheDocument();
    expect(screen.queryByText(/not in IATA database/)).not.toBeInTheDocument();
    expect(screen.queryByText('Confirm Valid Airport')).not.toBeInTheDocument();
  });

  it('a typed route drops the home bases as imports do: LHR-JFK becomes JFK', async () => {
    stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripFormDialog pilot={PILOT} onClose={() => {}} />);
    fill('Route', 'lhrjfk');
    fireEvent.blur(screen.getByLabelText('Route'));
    await waitFor(() => expect(screen.getByLabelText('Route')).toHaveValue('JFK'));
  });

  it('shows the server’s overlap message', async () => {
    const message = 'Trip dates conflict with existing trip: VS001/VS002 (01/01/2099 to 01/03/2099)';
    stubFetch((call) => {
      if (call.path === '/api/iata-codes') return iata();
      if (call.path === '/api/trips' && call.method === 'POST') return { status: 409, body: { error: message } };
      return undefined;
    });
    renderWithApp(<TripFormDialog pilot={PILOT} onClose={() => {}} />);
    fill('Start Flight', '007');
    fill('End Flight', '008');
    fill('Route', 'JFK');
    typeDate('Start Date', addDays(londonToday(), 5));
    typeDate('End Date', addDays(londonToday(), 6));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add Trip' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Add Trip' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('End date cannot be before start date', async () => {
    stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripFormDialog pilot={PILOT} onClose={() => {}} />);
    // The end date's calendar offers no day before the start; moving the start past it is how it happens.
    typeDate('Start Date', addDays(londonToday(), 4));
    typeDate('Start Date', addDays(londonToday(), 5));
    expect((screen.getByLabelText('End Date') as HTMLInputElement).value).not.toBe('');
    expect(await screen.findByText('End date cannot be before start date')).toBeInTheDocument();
  });
});

describe('Edit Trip', () => {
  it('Update is enabled only when something changed', async () => {
    stubFetch((call) => (call.path === '/api/iata-codes' ? iata() : undefined));
    renderWithApp(<TripFormDialog pilot={PILOT} trip={makeTrip()} onClose={() => {}} />);
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
    fill('End Flight', '009');
    expect(screen.getByRole('button', { name: 'Update' })).toBeEnabled();
    fill('End Flight', '008');
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
  });
});
