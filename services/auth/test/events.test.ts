import { requestRpc } from '@crewswap/kit';
import { eventually } from '@crewswap/kit-testing';
import { EventEnvelope, Pilot, PilotDeletedEvent, RPC, SeedDemoPilotsReply, SUBJECTS } from '@crewswap/proto';
import { startAuth, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h.close());

/** The last event on a subject as JetStream holds it (the outbox relay published it). */
async function lastOnStream(subject: string) {
  const { bus } = h.runtime;
  const message = await bus.jsm.streams.getMessage(bus.stream('AUTH'), { last_by_subj: bus.subject(subject) });
  return EventEnvelope.parse(message.json());
}

describe('Pilot events reach JetStream with the whole public profile', () => {
  it('auth.pilot.registered, auth.pilot.updated and auth.pilot.deleted', async () => {
    const me = await h.signedIn({ firstName: 'eve', lastName: 'events' });
    const { password: _password, ...profile } = me.pilot;
    const registered = await eventually(async () => {
      const event = await lastOnStream(SUBJECTS.pilotRegistered);
      return Pilot.parse((event.data as { pilot: unknown }).pilot).id === me.pilot.id ? event : undefined;
    });
    expect((registered.data as { pilot: unknown }).pilot).toEqual(profile);
    expect(registered.data).not.toHaveProperty('pilot.passwordHash');

    const changed = (await h.app.inject({ method: 'PATCH', url: `/api/pilots/${me.pilot.id}`, cookies: me.cookies, payload: { base: 'MAN', searchDayRange: 7 } })).json();
    const updated = await eventually(async () => {
      const event = await lastOnStream(SUBJECTS.pilotUpdated);
      return (event.data as { pilot: Pilot }).pilot.id === me.pilot.id ? event : undefined;
    });
    expect((updated.data as { pilot: unknown }).pilot).toEqual(changed);
    expect(Pilot.strict().parse((updated.data as { pilot: unknown }).pilot)).toMatchObject({ base: 'MAN', searchDayRange: 7 });
    expect(updated.version).toBeGreaterThan(registered.version);

    await h.app.inject({ method: 'DELETE', url: `/api/pilots/${me.pilot.id}`, cookies: me.cookies });
    const deleted = await eventually(async () => {
      const event = await lastOnStream(SUBJECTS.pilotDeleted);
      return PilotDeletedEvent.parse(event.data).pilotId === me.pilot.id ? event : undefined;
    });
    expect(deleted.data).toEqual({ pilotId: me.pilot.id, employeeId: me.pilot.employeeId });
  });
});

describe('Demo seed (auth.rpc.seed-demo)', () => {
  it('creates test pilots across ranks, fleets and bases once; later calls answer the same pilots', async () => {
    const first = await requestRpc(h.runtime.bus, RPC.seedDemoPilots, { count: 24 }, SeedDemoPilotsReply);
    expect(first.created).toBe(24);
    expect(first.pilots).toHaveLength(24);
    const pilots = first.pilots;
    expect(pilots.every((p) => p.testData && p.emailVerified && p.usualReq)).toBe(true);
    expect(new Set(pilots.map((p) => p.rank))).toEqual(new Set(['CP', 'FO']));
    expect(new Set(pilots.map((p) => p.fleet))).toEqual(new Set(['A330', 'A350', 'SFF', 'B787']));
    expect(new Set(pilots.map((p) => p.base))).toEqual(new Set(['LHR', 'MAN']));
    expect(pilots.some((p) => p.ltc)).toBe(true);
    expect(pilots.filter((p) => p.ltc).every((p) => p.rank === 'CP')).toBe(true);
    expect(pilots.filter((p) => p.rank === 'CP').every((p) => p.apic)).toBe(true);
    expect(pilots.every((p) => /^\d{6}$/.test(p.employeeId) && p.phone.startsWith('+44'))).toBe(true);
    expect(new Set(pilots.map((p) => p.employeeId)).size).toBe(24);
    expect(new Set(pilots.map((p) => p.email)).size).toBe(24);
    expect((await h.login(pilots[0]!.email, 'password')).response.statusCode).toBe(200);

    const again = await requestRpc(h.runtime.bus, RPC.seedDemoPilots, { count: 24 }, SeedDemoPilotsReply);
    expect(again.created).toBe(0);
    expect(again.pilots.map((p) => p.id).sort()).toEqual(pilots.map((p) => p.id).sort());
    const registered = await h.events(SUBJECTS.pilotRegistered);
    expect(registered.filter((event) => (event.data.pilot as Pilot).testData)).toHaveLength(24);
  });
});
