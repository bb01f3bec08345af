import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Pilot, Trip } from '@crewswap/proto';
import { makeTrip, PILOT, renderWithApp, stubFetch, type Call } from '../../../test/render';
import { queryKeys } from '../../api/keys';
import ManageTripDialog from './ManageTripDialog';
import { canPushAlert, moveRange, sentAlertStore, tripTone } from './manageTrip';

/** Reads the trip from the cache the way the trips page does, so answers show in the dialog. */
function Harness({ id, onClose, pilot }: { id: string; onClose: () => void; pilot: Pilot }) {
  const { data } = useQuery<Trip[]>({ queryKey: queryKeys.trips, queryFn: () => [], enabled: false });
  const trip = data?.find((t) => t.id === id);
  return trip ? <ManageTripDialog trip={trip} pilot={pilot} onClose={onClose} /> : null;
}

function renderManage(trip: Trip, handler: (call: Call) => { status?: number; body?: unknown } | undefined, onClose = () => {}, pilot: Pilot = PILOT) {
  const net = stubFetch(handler);
  const view = renderWithApp(<Harness id={trip.id} onClose={onClose} pilot={pilot} />, { trips: [trip] });
  return { ...view, ...net };
}

/** The 'Save Swap Preference?' dialog (jsdom gives every antd dialog the same label id, so not by role name). */
async function askSave(): Promise<HTMLElement> {
  return (await screen.findByText('Save Swap Preference?')).closest('[role="dialog"]') as HTMLElement;
}

function dialogContainer(): HTMLElement {
  return document.querySelector('.ant-modal-container') as HTMLElement;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sentAlertStore.clear(makeTrip().id);
});

describe('Manage Trip states', () => {
  it('background is green when kept, red when offered, blue otherwise', () => {
    expect(tripTone({ isSwappable: false, requested: true })).toBe('kept');
    expect(tripTone({ isSwappable: true, requested: false })).toBe('offered');
    expect(tripTone({ isSwappable: false, requested: false })).toBe('neutral');
    renderManage(makeTrip({ requested: true }), () => undefined);
    expect(dialogContainer().style.background).toBe('rgb(240, 251, 232)');
  });

  it('Swap offers the trip, clears Keep and shows the Trip Offered for Swap notice', async () => {
    const trip = makeTrip({ requested: true });
    const { calls } = renderManage(trip, (call) =>
      call.path.endsWith('/swappable') ? { body: { ...trip, isSwappable: true, requested: false } } : undefined,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Swap' }));
    expect((await screen.findAllByText('Trip Offered for Swap')).length).toBeGreaterThan(0);
    const patch = calls.find((c) => c.path.endsWith('/swappable'));
    expect(patch).toMatchObject({ method: 'PATCH', body: { isSwappable: true, requested: false } });
    await waitFor(() => expect(dialogContainer().style.background).toBe('rgb(255, 240, 239)'));
  });

  it('pressing the offered button asks Cancel Swap Offer? and then withdraws the offer', async () => {
    const trip = makeTrip({ isSwappable: true });
    const { calls } = renderManage(trip, (call) =>
      call.path.endsWith('/swappable') ? { body: { ...trip, isSwappable: false } } : undefined,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Offered for Swap' }));
    expect((await screen.findAllByText('Cancel Swap Offer?')).length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Offer' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/swappable'))?.body).toEqual({ isSwappable: false }));
  });

  it('Keep toggles requested; turning it on clears the offer', async () => {
    const trip = makeTrip({ isSwappable: true });
    const { calls, queryClient } = renderManage(trip, (call) =>
      call.path.endsWith('/requested') ? { body: { ...trip, requested: true, isSwappable: false } } : undefined,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/requested'))?.body).toEqual({ requested: true }));
    await waitFor(() =>
      expect(queryClient.getQueryData<Trip[]>(queryKeys.trips)?.[0]).toMatchObject({ requested: true, isSwappable: false }),
    );
  });
});

describe('swap description auto-save', () => {
  it('saves 2 seconds after typing stops, not before', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const trip = makeTrip({ isSwappable: true });
    const { calls } = renderManage(trip, (call) => (call.path.endsWith('/description') ? { body: { ...trip, swapDescription: 'Any JFK' } } : undefined));
    const box = screen.getByLabelText('Swap description');
    fireEvent.change(box, { target: { value: 'Any' } });
    act(() => vi.advanceTimersByTime(1500));
    fireEvent.change(box, { target: { value: 'Any JFK' } });
    act(() => vi.advanceTimersByTime(1999));
    expect(calls.filter((c) => c.path.endsWith('/description'))).toHaveLength(0);
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(calls.filter((c) => c.path.endsWith('/description')).map((c) => c.body)).toEqual([{ swapDescription: 'Any JFK' }]);
  });

  it('a failed save puts the last saved text back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    renderManage(makeTrip({ swapDescription: 'Saved text' }), (call) =>
      call.path.endsWith('/description') ? { status: 500, body: { error: 'Down' } } : undefined,
    );
    const box = screen.getByLabelText('Swap description') as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'New text' } });
    await act(async () => {
      vi.advanceTimersByTime(2000);
    });
    vi.useRealTimers();
    await waitFor(() => expect(box.value).toBe('Saved text'));
  });

  it("closing with an unsaved description asks 'Save Swap Preference?' with Cancel and Discard only", async () => {
    renderManage(makeTrip(), () => undefined);
    fireEvent.change(screen.getByLabelText('Swap description'), { target: { value: 'Closing' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    const buttons = within(await askSave()).getAllByRole('button').filter((button) => !button.classList.contains('ant-modal-close'));
    expect(buttons.map((button) => button.textContent)).toEqual(['Cancel', 'Discard']);
  });

  it("'Save Swap Preference?' Cancel keeps Manage Trip open with what was typed, saved as a close saves it", async () => {
    const trip = makeTrip();
    const onClose = vi.fn();
    const { calls } = renderManage(trip, (call) => (call.path.endsWith('/description') ? { body: { ...trip, swapDescription: 'Still typing' } } : undefined), onClose);
    fireEvent.change(screen.getByLabelText('Swap description'), { target: { value: 'Still typing' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    fireEvent.click(within(await askSave()).getByRole('button', { name: 'Cancel' }));
    expect(onClose).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Swap description') as HTMLTextAreaElement).value).toBe('Still typing');
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/description')).map((c) => c.body)).toEqual([{ swapDescription: 'Still typing' }]));
    // Saved: closing now closes at once.
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(onClose).toHaveBeenCalled();
  });

  it("'Save Swap Preference?' Discard closes without saving", async () => {
    const onClose = vi.fn();
    const { calls } = renderManage(makeTrip(), () => undefined, onClose);
    fireEvent.change(screen.getByLabelText('Swap description'), { target: { value: 'Never mind' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    fireEvent.click(within(await askSave()).getByRole('button', { name: 'Discard' }));
    expect(onClose).toHaveBeenCalled();
    expect(calls.filter((c) => c.path.endsWith('/description'))).toHaveLength(0);
  });

  it('closing with nothing unsaved closes at once', () => {
    const onClose = vi.fn();
    renderManage(makeTrip({ swapDescription: 'Saved' }), () => undefined, onClose);
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(onClose).toHaveBeenCalled();
    expect(screen.queryByText('Save Swap Preference?')).not.toBeInTheDocument();
  });
});

describe('Companions and Training from Manage Trip', () => {
  it('changing companions saves them on the trip; above 0 also keeps it', async () => {
    const trip = makeTrip({ isSwappable: true });
    const { calls, queryClient } = renderManage(trip, (call) =>
      call.method === 'PATCH' && call.path === `/api/trips/${trip.id}` ? { body: { ...trip, companions: 2, requested: true, isSwappable: false } } : undefined,
    );
    fireEvent.mouseDown(screen.getByLabelText('Companions'));
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ companions: 2 }));
    await waitFor(() => expect(queryClient.getQueryData<Trip[]>(queryKeys.trips)?.[0]).toMatchObject({ companions: 2, requested: true }));
  });

  it("a refused change shows 'Failed to update companions: {msg}'", async () => {
    const trip = makeTrip();
    renderManage(trip, (call) => (call.method === 'PATCH' ? { status: 500, body: { error: 'Database unavailable' } } : undefined));
    fireEvent.mouseDown(screen.getByLabelText('Companions'));
    fireEvent.click(await screen.findByTitle('3'));
    expect(await screen.findByText('Failed to update companions: Database unavailable')).toBeInTheDocument();
  });

  it("Training is offered to LTC pilots only, and a refused change shows 'Failed to update training status: {msg}'", async () => {
    renderManage(makeTrip(), () => undefined);
    expect(screen.queryByRole('checkbox', { name: 'Training trip' })).not.toBeInTheDocument();
    cleanup();

    const trip = makeTrip();
    const { calls } = renderManage(trip, (call) => (call.method === 'PATCH' ? { status: 403, body: { error: 'Only LTC captains can mark trips as Training.' } } : undefined), () => {}, { ...PILOT, rank: 'CP', ltc: true });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Training trip' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ training: true }));
    expect(await screen.findByText('Failed to update training status: Only LTC captains can mark trips as Training.')).toBeInTheDocument();
  });
});

describe('Push Alert', () => {
  it('is disabled while the description is empty or already sent, and enabled by something new', () => {
    const base = { isSwappable: true, description: '', searchStartDate: null, searchEndDate: null, lastSent: undefined };
    expect(canPushAlert(base)).toBe(false);
    expect(canPushAlert({ ...base, description: 'Any JFK' })).toBe(true);
    expect(canPushAlert({ ...base, isSwappable: false, description: 'Any JFK' })).toBe(false);
    const sent = { description: 'Any JFK', searchStartDate: null, searchEndDate: null };
    expect(canPushAlert({ ...base, description: 'Any JFK', lastSent: sent })).toBe(false);
    expect(canPushAlert({ ...base, description: 'Any JFK or LAX', lastSent: sent })).toBe(true);
  });

  it('sends, then shows ✓ Sent until the description changes', async () => {
    const trip = makeTrip({ isSwappable: true, swapDescription: 'Any JFK' });
    const { calls } = renderManage(trip, (call) => {
      if (call.path.endsWith('/send-notifications')) return { body: { message: 'Sent', alerted: 3 } };
      if (call.path.endsWith('/description')) return { body: trip };
      return undefined;
    });
    const push = screen.getByRole('button', { name: 'Push Alert' });
    expect(push).toBeEnabled();
    fireEvent.click(push);
    const sent = await screen.findByRole('button', { name: '✓ Sent' });
    expect(sent).toBeDisabled();
    expect(calls.filter((c) => c.path.endsWith('/send-notifications'))).toHaveLength(1);
    expect(await screen.findByText('Swap notifications sent to other pilots')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Swap description'), { target: { value: 'Any JFK or BOS' } });
    expect(screen.getByRole('button', { name: 'Push Alert' })).toBeEnabled();
  });

  it('is disabled for a trip that is not offered', () => {
    renderManage(makeTrip({ swapDescription: 'Any JFK' }), () => undefined);
    expect(screen.getByRole('button', { name: 'Push Alert' })).toBeDisabled();
  });
});

describe('Find & Alert range', () => {
  it('moving From past To moves To; To cannot precede From', () => {
    expect(moveRange({ from: '2099-03-08', to: '2099-03-09' }, { from: '2099-03-11' })).toEqual({ from: '2099-03-11', to: '2099-03-11' });
    expect(moveRange({ from: '2099-03-08', to: '2099-03-09' }, { to: '2099-03-07' })).toEqual({ from: '2099-03-08', to: '2099-03-08' });
  });
  it('limits the dates to the swap window around the trip start', () => {
    renderManage(makeTrip({ startDate: '2099-03-10' }), () => undefined);
    fireEvent.mouseDown(screen.getByLabelText('From'));
    fireEvent.click(screen.getByLabelText('From'));
    const day = (iso: string) => document.querySelector(`td[title="${iso}"]`);
    expect(day('2099-03-05')).toHaveClass('ant-picker-cell-disabled');
    expect(day('2099-03-06')).not.toHaveClass('ant-picker-cell-disabled');
    expect(day('2099-03-14')).not.toHaveClass('ant-picker-cell-disabled');
    expect(day('2099-03-15')).toHaveClass('ant-picker-cell-disabled');
  });
});
