import { randomUUID } from 'node:crypto';
import { eventually } from '@crewswap/kit-testing';
import { PilotContact, SUBJECTS, type Pilot, type SwapAgreement, type Trip, type TripMove } from '@crewswap/proto';
import { makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

describe('a swap crewing approved at the desk', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  async function trip(pilotId: string, body: Record<string, unknown>): Promise<Trip> {
    const response = await service.app.inject({ method: 'POST', url: '/api/trips', payload: tripBody(body), cookies: pilotCookie(pilotId) });
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  /** Swaps' events for an agreed swap and then crewing's approval, moving the trips as swaps says. */
  async function agreeAndApprove(proposer: { pilot: Pilot; trip: Trip }, owner: { pilot: Pilot; trip: Trip }) {
    const agreement: SwapAgreement = {
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
    };
    const moves: TripMove[] = [
      { tripId: proposer.trip.id, fromPilotId: proposer.pilot.id, toPilotId: owner.pilot.id },
      { tripId: owner.trip.id, fromPilotId: owner.pilot.id, toPilotId: proposer.pilot.id },
    ];
    const admin = randomUUID();
    const write = <S extends typeof SUBJECTS.agreementMade | typeof SUBJECTS.agreementApproved>(subject: S, data: object) =>
      service.runtime.db.transaction((trx) => service.runtime.outbox.write(trx, subject, data as never));
    await write(SUBJECTS.agreementMade, { agreement, by: owner.pilot.id });
    const approved = { agreement: { ...agreement, status: 'approved', closedBy: admin, closedAt: new Date().toISOString() }, by: admin, moves };
    await write(SUBJECTS.agreementApproved, approved);
    return { agreement, approved, write };
  }

  const holder = async (tripId: string) => (await service.runtime.db('trips').where({ id: tripId }).first())?.pilot_id;

  it('moves both trips to the other pilot in one go, no longer offered or agreed, and tells both pilots', async () => {
    const [owner, proposer] = [await registerPilot(service, makePilot()), await registerPilot(service, makePilot())];
    const offered = await trip(owner.id, { startDate: '2027-01-12', endDate: '2027-01-15', isSwappable: true, swapDescription: 'Anything' });
    const given = await trip(proposer.id, { flightNoStart: 'VS025', flightNoEnd: 'VS026', route: 'JFK', startDate: '2027-01-13', endDate: '2027-01-16' });
    const { agreement, approved, write } = await agreeAndApprove({ pilot: proposer, trip: given }, { pilot: owner, trip: offered });
    await eventually(async () => (await holder(offered.id)) === proposer.id && (await holder(given.id)) === owner.id, 10_000);
    const mine = (await service.app.inject({ method: 'GET', url: '/api/trips', cookies: pilotCookie(proposer.id) })).json() as Trip[];
    expect(mine.find((t) => t.id === offered.id)).toMatchObject({ pilotId: proposer.id, isSwappable: false, swapDescription: null });
    expect(mine.map((t) => t.id)).not.toContain(given.id);
    expect(await service.runtime.db('agreed_swaps').where({ agreement_id: agreement.id })).toEqual([]);
    // The usual trip events carry the new holder, and who held it before: realtime tells both pilots.
    const movedEvents = async () =>
      (await service.runtime.db('outbox').where({ subject: SUBJECTS.tripUpdated }).orderBy('seq'))
        .map((row: { envelope: { data: { trip: Trip; movedFrom?: string } } }) => row.envelope.data)
        .filter((data) => data.movedFrom);
    expect((await movedEvents()).map((data) => [data.trip.id, data.trip.pilotId, data.movedFrom])).toEqual([
      [given.id, owner.id, proposer.id],
      [offered.id, proposer.id, owner.id],
    ]);
    // The same approval again (a redelivery under another id) moves nothing twice.
    const versions = async () => (await service.runtime.db('trips').whereIn('id', [offered.id, given.id]).orderBy('id')).map((row: { version: number }) => row.version);
    const before = await versions();
    const again = await write(SUBJECTS.agreementApproved, approved);
    await eventually(() => service.runtime.db('processed_events').where({ event_id: again.id }).first(), 10_000);
    expect(await versions()).toEqual(before);
    expect(await holder(offered.id)).toBe(proposer.id);
    expect((await movedEvents()).length).toBe(2);
  });

  it('a roster imported after the approved swap that already shows it is no change, and withdraws no offer twice', async () => {
    const [owner, proposer] = [await registerPilot(service, makePilot()), await registerPilot(service, makePilot())];
    const duty = { flightNoStart: 'VS003', flightNoEnd: 'VS004', route: 'JFK', startDate: '2027-02-03', endDate: '2027-02-06', aircraft: 'A350' as const, icsDescription: 'JFK layover' };
    await service.useCases.importTrips.execute({ pilotId: owner.id, source: 'upload', trips: [duty] });
    const offered = (await service.repositories.trips.listByPilot(owner.id)).find((t) => t.flightNoStart === 'VS003')!;
    await service.app.inject({ method: 'PATCH', url: `/api/trips/${offered.id}/swappable`, payload: { isSwappable: true }, cookies: pilotCookie(owner.id) });
    const given = await trip(proposer.id, { flightNoStart: 'VS045', flightNoEnd: 'VS046', route: 'IAD', startDate: '2027-02-04', endDate: '2027-02-06' });
    await agreeAndApprove({ pilot: proposer, trip: given }, { pilot: owner, trip: offered });
    await eventually(async () => (await holder(offered.id)) === proposer.id, 10_000);
    const updatesBefore = await service.runtime.db('outbox').where({ subject: SUBJECTS.tripUpdated }).count<{ count: string }[]>('* as count');

    // Crewing's system now rosters the moved trip to the proposer: the same flights and date.
    const imported = await service.useCases.importTrips.execute({ pilotId: proposer.id, source: 'upload', trips: [duty] });
    expect(imported.changes).toEqual([]);
    expect(imported.processedCount).toBe(0);
    expect((await service.repositories.trips.listByPilot(proposer.id)).filter((t) => t.flightNoStart === 'VS003').map((t) => t.id)).toEqual([offered.id]);
    const updatesAfter = await service.runtime.db('outbox').where({ subject: SUBJECTS.tripUpdated }).count<{ count: string }[]>('* as count');
    expect(updatesAfter[0]!.count).toBe(updatesBefore[0]!.count);
  });
});
