import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import type { Pilot, Trip } from '@crewswap/proto';
import { AppProviders } from '../src/App';
import { queryKeys } from '../src/api/keys';
import { createQueryClient } from '../src/api/queryClient';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (call: Call) => { status?: number; body?: unknown } | undefined;

/** Stands in for the network: records every call and answers from `handler` (404 otherwise). */
export function stubFetch(handler: Handler) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = {
      method: init?.method ?? 'GET',
      path: String(input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const answer = handler(call) ?? { status: 404, body: { error: 'Not found' } };
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      statusText: status === 200 ? 'OK' : 'Error',
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** `path`: the address the app opens at (a panel's filters in its query string). */
export function renderWithApp(ui: ReactElement, seed: { trips?: Trip[]; pilot?: Pilot; path?: string } = {}) {
  const queryClient = createQueryClient();
  if (seed.trips) queryClient.setQueryData(queryKeys.trips, seed.trips);
  if (seed.pilot) queryClient.setQueryData(queryKeys.currentPilot, seed.pilot);
  queryClient.setQueryData(queryKeys.setting('swap_search_days'), '4');
  const result = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={seed.path ? [seed.path] : undefined}>{ui}</MemoryRouter>
    </AppProviders>,
  );
  return { ...result, queryClient };
}

export const PILOT: Pilot = {
  id: '11111111-1111-4111-8111-111111111111',
  employeeId: '123456',
  firstName: 'Erin',
  lastName: 'Tester',
  email: 'erin.tester@fly.virgin.com',
  phone: '+447700900123',
  rank: 'FO',
  fleet: 'A350',
  base: 'LHR',
  apic: true,
  ltc: false,
  usualReq: true,
  allVisible: true,
  testData: false,
  emailVerified: true,
  searchDayRange: null,
  rankLastChanged: null,
  fleetLastChanged: null,
  ltcLastChanged: null,
  usualReqOff: null,
  createdAt: '2026-01-01T00:00:00Z',
};

export function makeTrip(overrides: Partial<Trip> = {}): Trip {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    pilotId: PILOT.id,
    source: 'manual',
    flightNoStart: 'VS007',
    flightNoEnd: 'VS008',
    aircraft: 'A350',
    route: 'LAX-SFO',
    startDate: '2099-03-10',
    endDate: '2099-03-12',
    isSwappable: false,
    offerType: 'swap',
    training: false,
    requested: false,
    companions: null,
    swapDescription: null,
    icsDescription: null,
    searchStartDate: null,
    searchEndDate: null,
    isStandby: false,
    reportAt: null,
    releaseAt: null,
    sectors: null,
    blockMinutes: null,
    dutyMinutes: null,
    nightsAway: 0,
    landings: null,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

/**
 * Types a day ('YYYY-MM-DD', or '' to clear it) into the date picker labelled `label`, as a pilot
 * types it: MM/DD/YYYY, then Enter.
 */
export function typeDate(label: string, iso: string) {
  const input = screen.getByLabelText(label);
  if (!iso) {
    fireEvent.click(input.closest('.ant-picker')!.querySelector('.ant-picker-clear')!);
    return;
  }
  fireEvent.mouseDown(input);
  fireEvent.change(input, { target: { value: `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` } });
  fireEvent.keyDown(input, { key: 'Enter' });
}
