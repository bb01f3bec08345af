import { randomUUID } from 'node:crypto';
import { eventually, testPilot, testTrip } from '@crewswap/kit-testing';
import { PilotContact, SUBJECTS, type SwapAgreement, type SwapProposal } from '@crewswap/proto';
import { headersOf, startNotifications, type TestNotifications } from './helpers';

function side(firstName: string, employeeId: string, flight: string) {
  const pilot = testPilot({ firstName, lastName: 'Stone', employeeId, email: `${firstName.toLowerCase()}.stone@fly.virgin.com` });
  return { pilot: PilotContact.parse(pilot), trip: testTrip({ pilotId: pilot.id, flightNoStart: flight, flightNoEnd: 'VS004', route: 'JFK', aircraft: 'A350', startDate: '2026-12-01', endDate: '2026-12-03', icsDescription: `${flight} LHR-JFK` }) };
}

describe('swap proposals and agreements, told to the pilots and to crewing', () => {
  let service: TestNotifications;
  beforeAll(async () => {
    service = await startNotifications();
  });
  afterAll(async () => {
    await service.stop();
  });

  const publish = <S extends typeof SUBJECTS.proposalMade | typeof SUBJECTS.agreementMade>(subject: S, data: S extends typeof SUBJECTS.proposalMade ? { proposal: SwapProposal; by: string } : { agreement: SwapAgreement; by: string }) =>
    service.sender.db.transaction((trx) => service.sender.outbox.write(trx, subject, data as never));
  const pushes = (pilotId: string) =>
    eventually(async () => {
      const rows: { envelope: { data: { pilotId: string; kind: string; title: string; body: string } } }[] = await service.runtime.db('outbox').where({ subject: SUBJECTS.sendPush });
      const mine = rows.map((row) => row.envelope.data).filter((push) => push.pilotId === pilotId);
      return mine.length > 0 ? mine : undefined;
    }, 15_000);

  it("a new proposal pushes 'New swap proposal' to the offer's owner", async () => {
    const proposer = side('Amy', '100001', 'VS001');
    const owner = side('Ben', '100002', 'VS003');
    const proposal: SwapProposal = { id: randomUUID(), status: 'open', proposer, owner, note: 'Wedding', reason: null, counterOf: null, agreementId: null, mutual: false, createdAt: '2026-11-23T10:00:00.000Z', decidedAt: null };
    await publish(SUBJECTS.proposalMade, { proposal, by: proposer.pilot.id });
    expect(await pushes(owner.pilot.id)).toEqual([
      expect.objectContaining({ kind: 'swap_proposal', title: 'New swap proposal', body: 'Amy Stone offers VS001/VS004 JFK (A350), 2026-12-01 to 2026-12-03 for your VS003/VS004 JFK (A350), 2026-12-01 to 2026-12-03: Wedding' }),
    ]);
  });

  it('an agreement mails the crewing request to both pilots and to crewing_email, and pushes both', async () => {
    service.settings.crewing_email = 'crewing@fly.virgin.com';
    const proposer = side('Cat', '200001', 'VS011');
    const owner = side('Dan', '200002', 'VS013');
    const agreement: SwapAgreement = { id: randomUUID(), proposalId: randomUUID(), status: 'agreed', kind: 'swap', reason: null, proposer, owner, agreedAt: '2026-11-23T10:05:00.000Z', closedAt: null, closedBy: null };
    const event = await publish(SUBJECTS.agreementMade, { agreement, by: owner.pilot.id });
    const files = await eventually(async () => {
      const mine = (await service.emlFiles()).filter((name) => name.includes(event.id) || /cat\.stone|dan\.stone|crewing@/.test(name));
      return mine.length === 3 ? mine : undefined;
    }, 15_000);
    const crewing = await service.readEml(files.find((name) => name.includes('crewing@'))!);
    expect(headersOf(crewing).subject).toBe('Trip swap request: Cat Stone and Dan Stone');
    for (const line of ['Agreed: 2026-11-23 10:05 UTC', 'Pilot 1: Cat Stone, staff number 200001', 'Gives trip: VS011/VS004 JFK (A350), 2026-12-01 to 2026-12-03', 'Duty: VS011 LHR-JFK', 'Pilot 2: Dan Stone, staff number 200002']) {
      expect(crewing).toContain(line);
    }
    for (const pilot of [proposer, owner]) expect((await pushes(pilot.pilot.id)).map((push) => push.title)).toEqual(['Swap agreed']);
  });

  it('a pick-up tells the owner who wants to pick up their trip, and its agreement says who gives it away', async () => {
    const picker = { ...side('Alex', '300001', 'VS001'), trip: null };
    picker.pilot.lastName = 'Lee';
    const owner = side('Eve', '300002', 'VS025');
    owner.trip = { ...owner.trip, flightNoEnd: 'VS026', startDate: '2027-01-12', endDate: '2027-01-15' };
    const proposal: SwapProposal = { id: randomUUID(), status: 'open', proposer: picker, owner, note: null, reason: null, counterOf: null, agreementId: null, mutual: false, createdAt: '2026-11-23T10:00:00.000Z', decidedAt: null };
    await publish(SUBJECTS.proposalMade, { proposal, by: picker.pilot.id });
    expect(await pushes(owner.pilot.id)).toEqual([expect.objectContaining({ title: 'New swap proposal', body: 'Alex Lee wants to pick up your VS025/VS026 JFK 12-15 Jan' })]);

    const agreement: SwapAgreement = { id: randomUUID(), proposalId: proposal.id, status: 'agreed', kind: 'giveaway', reason: null, proposer: picker, owner, agreedAt: '2026-11-23T10:05:00.000Z', closedAt: null, closedBy: null };
    await publish(SUBJECTS.agreementMade, { agreement, by: owner.pilot.id });
    const agreed = await eventually(async () => {
      const mine = (await pushes(owner.pilot.id)).filter((push) => push.title === 'Swap agreed');
      return mine.length > 0 ? mine : undefined;
    }, 15_000);
    expect(agreed.map((push) => push.body)).toEqual(['With Alex Lee: you give away VS025/VS026 JFK (A350), 2027-01-12 to 2027-01-15. Awaiting crewing.']);
    expect((await pushes(picker.pilot.id)).map((push) => push.body)).toEqual(['With Eve Stone: you take VS025/VS026 JFK (A350), 2027-01-12 to 2027-01-15. Awaiting crewing.']);
  });
});
