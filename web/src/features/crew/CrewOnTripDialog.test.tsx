import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CrewMember, WhatsappGroup, WhatsappGroupResponse } from '@crewswap/proto';
import { makeTrip, PILOT, renderWithApp, stubFetch, type Call } from '../../../test/render';
import CrewOnTripDialog from './CrewOnTripDialog';

afterEach(() => vi.unstubAllGlobals());

const TRIP = makeTrip();
const OTHER_ID = '55555555-5555-4555-8555-555555555555';
const LINK = 'https://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv';

const member = (overrides: Partial<CrewMember>): CrewMember => ({
  id: OTHER_ID,
  employeeId: '200001',
  firstName: 'Cara',
  lastName: 'Captain',
  email: 'cara.captain@fly.virgin.com',
  phone: '+447700900777',
  rank: 'CP',
  fleet: 'A350',
  base: 'LHR',
  apic: true,
  ltc: true,
  tripId: '66666666-6666-4666-8666-666666666666',
  isSwappable: false,
  training: false,
  requested: true,
  companions: null,
  ...overrides,
});

const group = (overrides: Partial<WhatsappGroup>): WhatsappGroup => ({
  id: '77777777-7777-4777-8777-777777777777',
  status: 'pending',
  groupName: 'VS007/VS008 LAX-SFO 10 Mar 2099',
  inviteLink: null,
  createdByPilotId: PILOT.id,
  creatorName: 'Erin Tester',
  flightNoStart: 'VS007',
  startDate: TRIP.startDate,
  endDate: TRIP.endDate,
  isExpired: false,
  justCreatedByOther: false,
  isCreator: true,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...overrides,
});

const answer = (g: WhatsappGroup | null, extra: Partial<WhatsappGroupResponse> = {}): WhatsappGroupResponse => ({
  group: g,
  status: g?.status ?? 'none',
  isExpired: false,
  groupName: 'VS007/VS008 LAX-SFO 10 Mar 2099',
  message: null,
  ...extra,
});

/** The server as the dialog sees it: the crew, and a group that the handler may change. */
function serve(state: { group: WhatsappGroupResponse; crew?: CrewMember[] }, onCall?: (call: Call) => { status?: number; body?: unknown } | undefined) {
  return stubFetch((call) => {
    const custom = onCall?.(call);
    if (custom) return custom;
    if (call.path === `/api/trips/${TRIP.id}/pilots`) return { body: state.crew ?? [member({})] };
    if (call.path === `/api/trips/${TRIP.id}/whatsapp-group` && call.method === 'GET') return { body: state.group };
    return undefined;
  });
}

describe('Crew on Trip', () => {
  it('lists each pilot with rank, name, tags and a WhatsApp chat link with a greeting; none without a phone', async () => {
    serve({ group: answer(null), crew: [member({}), member({ id: OTHER_ID.replace('5', '8'), firstName: 'Finn', lastName: 'Nophone', rank: 'FO', phone: '', ltc: false })] });
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    const cara = await screen.findByRole('listitem', { name: 'CP Cara Captain' });
    expect(cara).toHaveTextContent('LTC');
    expect(cara).toHaveTextContent('K');
    const chat = screen.getByRole('link', { name: 'WhatsApp Cara Captain' });
    expect(decodeURIComponent(chat.getAttribute('href')!)).toBe(
      'https://wa.me/447700900777?text=Hi Cara, this is FO Erin Tester. I found you on CrewSwap on VS007/VS008 LAX-SFO (03/10/2099 to 03/12/2099).',
    );
    expect(screen.getByRole('listitem', { name: 'FO Finn Nophone' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'WhatsApp Finn Nophone' })).not.toBeInTheDocument();
  });

  it('tapping a crew row opens the pilot contact view with name, rank, fleet, email, phone and WhatsApp', async () => {
    serve({ group: answer(null) });
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Contact Cara Captain' }));
    const view = (await screen.findByText('Pilot Contact')).closest('[role="dialog"]') as HTMLElement;
    for (const text of ['Cara Captain', 'Captain', 'A350', 'cara.captain@fly.virgin.com', '+447700900777']) expect(view).toHaveTextContent(text);
    expect(within(view).getByRole('link', { name: /Chat on WhatsApp/ }).getAttribute('href')).toMatch(/^https:\/\/wa\.me\/447700900777\?text=/);
  });

  it("says 'Failed to fetch pilots on this trip.' when the crew cannot be read", async () => {
    serve({ group: answer(null) }, (call) => (call.path.endsWith('/pilots') ? { status: 500, body: { error: 'down' } } : undefined));
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    expect(await screen.findByText('Failed to fetch pilots on this trip.')).toBeInTheDocument();
  });

  it('no group: any crew member may create one', async () => {
    const state = { group: answer(null) };
    const { calls } = serve(state, (call) => {
      if (call.method === 'POST' && call.path.endsWith('/whatsapp-group')) {
        state.group = answer(group({}));
        return { status: 201, body: state.group };
      }
      return undefined;
    });
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: /Create WhatsApp Group/ }));
    expect(await screen.findByLabelText("Paste the group's invite link:")).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST' && call.path === `/api/trips/${TRIP.id}/whatsapp-group`)).toBe(true);
  });

  it("pending, for its creator: the invite link form says 'Please paste the WhatsApp group invite link' and 'Invalid WhatsApp invite link', then saves", async () => {
    const state = { group: answer(group({})) };
    const { calls } = serve(state, (call) => {
      if (call.method === 'PATCH') {
        state.group = answer(group({ status: 'active', inviteLink: LINK }));
        return { body: state.group };
      }
      return undefined;
    });
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    const field = await screen.findByLabelText("Paste the group's invite link:");
    fireEvent.click(screen.getByRole('button', { name: 'Save Link' }));
    expect(await screen.findByText('Please paste the WhatsApp group invite link')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: 'https://example.com/not-whatsapp' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Link' }));
    expect(await screen.findByText('Invalid WhatsApp invite link')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
    fireEvent.change(field, { target: { value: LINK } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Link' }));
    expect(await screen.findByRole('link', { name: /Join Group/ })).toHaveAttribute('href', LINK);
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ inviteLink: LINK });
  });

  it("pending, for another crew member: says who is setting it up, with no form", async () => {
    serve({ group: answer(group({ isCreator: false, createdByPilotId: OTHER_ID, creatorName: 'Cara Captain' })) });
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    expect(await screen.findByText(/Cara Captain is setting up the WhatsApp group/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Link' })).not.toBeInTheDocument();
  });

  it('active: crew join by the link and see its QR code; only the creator may delete', async () => {
    serve({ group: answer(group({ status: 'active', inviteLink: LINK, isCreator: false, createdByPilotId: OTHER_ID, creatorName: 'Cara Captain' })) });
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    expect(await screen.findByRole('link', { name: /Join Group/ })).toHaveAttribute('href', LINK);
    expect(screen.queryByRole('button', { name: /Delete Group/ })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /QR Code/ }));
    expect(await screen.findByLabelText(`QR code for ${LINK}`)).toBeInTheDocument();
  });

  it('active, for its creator: Delete asks first (Delete WhatsApp Group) and then deletes', async () => {
    const state = { group: answer(group({ status: 'active', inviteLink: LINK })) };
    const { calls } = serve(state, (call) => {
      if (call.method === 'DELETE') {
        state.group = answer(null);
        return { status: 204 };
      }
      return undefined;
    });
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: /Delete Group/ }));
    expect((await screen.findAllByText('Delete WhatsApp Group')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('button', { name: /Create WhatsApp Group/ })).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE' && call.path === `/api/trips/${TRIP.id}/whatsapp-group`)).toBe(true);
  });

  it('claimable: another crew member may claim it', async () => {
    const state = { group: answer(group({ status: 'claimable', inviteLink: LINK, isCreator: false, createdByPilotId: OTHER_ID })) };
    const { calls } = serve(state, (call) => {
      if (call.path.endsWith('/claim')) {
        state.group = answer(group({ status: 'active', inviteLink: LINK }));
        return { body: state.group };
      }
      return undefined;
    });
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: /Claim Group/ }));
    expect(await screen.findByRole('button', { name: /Delete Group/ })).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST' && call.path.endsWith('/whatsapp-group/claim'))).toBe(true);
  });

  it('expired: no group can be created for a past trip, and an old link may no longer be active', async () => {
    serve({ group: answer(null, { status: 'expired', isExpired: true, message: 'This trip has ended. Groups cannot be created for past trips.' }) });
    const first = renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    expect(await screen.findByText('This trip has ended. Groups cannot be created for past trips.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Create WhatsApp Group/ })).not.toBeInTheDocument();
    first.unmount();

    serve({ group: answer(group({ status: 'active', inviteLink: LINK, isExpired: true }), { isExpired: true, status: 'expired' }) });
    renderWithApp(<CrewOnTripDialog trip={TRIP} me={PILOT} onClose={() => {}} />);
    expect(await screen.findByText('This trip has ended. The group link may no longer be active.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: /Join Group/ })).toBeInTheDocument());
  });
});
