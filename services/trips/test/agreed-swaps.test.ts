import { randomUUID } from 'node:crypto';
import { eventually } from '@crewswap/kit-testing';
import { PilotContact, SUBJECTS, type Pilot, type SwapAgreement, type Trip } from '@crewswap/proto';
import { makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

describe('a swap agreed in swaps', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  /** A swap agreed in swaps between the proposer's trip and the owner's, as its event carries it. */
  const agreementOf = (proposer: { pilot: Pilot; trip: Trip }, owner: { pilot: Pilot; trip: Trip }): SwapAgreement => ({
    id: randomUUID(),
    proposalId: randomUUID(),
    status: 'agreed',
    kind: 'swap',
    reason: null,
    proposer: { pilot: PilotContact.parse(proposer.pilot), trip: proposer.trip },
    owner: { pilot: PilotContact.parse(owner.pilot), trip: owner.trip },
    agreedAt: new Date().toISOString(),
    closedAt: null,
    closedBy: null,
  });

  async function trip(pilotId: string, body: Record<string, unknown>): Promise<Trip> {
    const response = await service.app.inject({ method: 'POST', url: '/api/trips', payload: tripBody(body), cookies: pilotCookie(pilotId) });
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  it("takes both trips off offer (so their matches clear), and tells the trips' followers", async () => {
    const [owner, proposer] = [await registerPilot(service, makePilot()), await registerPilot(service, makePilot())];
    const offered = await trip(owner.id, { isSwappable: true, swapDescription: 'Anything' });
    const given = await trip(proposer.id, { startDate: '2026-11-11', endDate: '2026-11-13', isSwappable: true });
    const kept = await trip(owner.id, { startDate: '2026-11-20', endDate: '2026-11-22', isSwappable: true });
    const agreement = agreementOf({ pilot: proposer, trip: given }, { pilot: owner, trip: offered });
    await service.runtime.db.transaction((trx) => service.runtime.outbox.write(trx, SUBJECTS.agreementMade, { agreement, by: owner.id }));
    const swappable = async (pilotId: string, id: string) => (await service.repositories.trips.findOwn(pilotId, id))?.isSwappable;
    await eventually(async () => (await swappable(owner.id, offered.id)) === false && (await swappable(proposer.id, given.id)) === false, 10_000);
    expect(await swappable(owner.id, kept.id)).toBe(true);
    const updates = await service.runtime.db('outbox').where({ subject: SUBJECTS.tripUpdated });
    const withdrawn = updates.map((row: { envelope: { data: { trip: Trip; origin: { channel: string } } } }) => row.envelope.data).filter((data) => [offered.id, given.id].includes(data.trip.id));
    expect(withdrawn.map((data) => [data.trip.isSwappable, data.origin.channel])).toEqual([
      [false, 'system'],
      [false, 'system'],
    ]);
  });

  it("titles both trips 'Swap agreed' in the pilots' calendar feeds until the swap is cancelled", async () => {
    const [owner, proposer] = [await registerPilot(service, makePilot()), await registerPilot(service, makePilot())];
    const offered = await trip(owner.id, { startDate: '2026-12-20', endDate: '2026-12-22', isSwappable: true });
    const given = await trip(proposer.id, { startDate: '2026-12-21', endDate: '2026-12-23' });
    const feedOf = async (pilotId: string) => {
      const { url } = (await service.app.inject({ method: 'POST', url: '/api/calendar/feed', cookies: pilotCookie(pilotId) })).json();
      const path = new URL(url.replace(/^webcal:/, 'http:')).pathname;
      return async () => (await service.app.inject({ method: 'GET', url: path })).body;
    };
    const [ownerFeed, proposerFeed] = [await feedOf(owner.id), await feedOf(proposer.id)];
    const agreement = agreementOf({ pilot: proposer, trip: given }, { pilot: owner, trip: offered });
    const send = (subject: typeof SUBJECTS.agreementMade | typeof SUBJECTS.agreementCancelled) =>
      service.runtime.db.transaction((trx) => service.runtime.outbox.write(trx, subject, { agreement, by: owner.id }));
    expect(await ownerFeed()).toContain('SUMMARY:Offered ·');
    await send(SUBJECTS.agreementMade);
    await eventually(async () => (await ownerFeed()).includes('SUMMARY:Swap agreed ·') && (await proposerFeed()).includes('SUMMARY:Swap agreed ·'), 10_000);
    await send(SUBJECTS.agreementCancelled);
    // The offer is not put back by itself: the trip is neither agreed nor offered.
    await eventually(async () => !(await ownerFeed()).includes('Swap agreed') && !(await proposerFeed()).includes('Swap agreed'), 10_000);
    expect(await ownerFeed()).not.toContain('SUMMARY:Offered');
  });
});
