import { randomUUID } from 'node:crypto';
import { eventually, testPilot, testTrip } from '@crewswap/kit-testing';
import { PilotContact, SUBJECTS, type SwapAgreement } from '@crewswap/proto';
import { startNotifications, type TestNotifications } from './helpers';

function side(firstName: string, employeeId: string, flights: [string, string], dates: [string, string]) {
  const pilot = testPilot({ firstName, lastName: 'Moss', employeeId, email: `${firstName.toLowerCase()}.moss@fly.virgin.com` });
  return { pilot: PilotContact.parse(pilot), trip: testTrip({ pilotId: pilot.id, flightNoStart: flights[0], flightNoEnd: flights[1], route: 'JFK', aircraft: 'A350', startDate: dates[0], endDate: dates[1] }) };
}

describe("crewing's decision at the desk, told to both pilots by push and mail", () => {
  let service: TestNotifications;
  beforeAll(async () => {
    service = await startNotifications();
  });
  afterAll(async () => {
    await service.stop();
  });

  const decide = (subject: typeof SUBJECTS.agreementApproved | typeof SUBJECTS.agreementRefused, agreement: SwapAgreement) =>
    service.sender.db.transaction((trx) => service.sender.outbox.write(trx, subject, { agreement, by: randomUUID() }));
  const told = (pilotId: string, email: string) =>
    eventually(async () => {
      const rows: { subject: string; envelope: { data: { pilotId?: string; to?: string; title?: string; body?: string; text?: string } } }[] = await service.runtime
        .db('outbox')
        .whereIn('subject', [SUBJECTS.sendPush, SUBJECTS.sendMail]);
      const push = rows.map((row) => row.envelope.data).find((data) => data.pilotId === pilotId);
      const mail = rows.map((row) => row.envelope.data).find((data) => data.to === email);
      return push && mail ? { push, mail } : undefined;
    }, 15_000);
  const agreementOf = (proposer: SwapAgreement['proposer'], owner: SwapAgreement['owner'], status: SwapAgreement['status'], reason: string | null = null): SwapAgreement => ({
    id: randomUUID(),
    proposalId: randomUUID(),
    status,
    kind: proposer.trip ? 'swap' : 'giveaway',
    reason,
    proposer,
    owner,
    agreedAt: '2026-11-23T10:05:00.000Z',
    closedAt: '2026-11-24T09:00:00.000Z',
    closedBy: randomUUID(),
  });

  it("approved: each pilot hears the trip they now fly, 'Swap approved: you now fly VS025/VS026 JFK 12-15 Jan'", async () => {
    const proposer = side('Eve', '300001', ['VS003', 'VS004'], ['2027-01-11', '2027-01-14']);
    const owner = side('Fay', '300002', ['VS025', 'VS026'], ['2027-01-12', '2027-01-15']);
    await decide(SUBJECTS.agreementApproved, agreementOf(proposer, owner, 'approved'));
    const eve = await told(proposer.pilot.id, proposer.pilot.email);
    expect([eve.push.title, eve.push.body]).toEqual(['Swap approved by crewing', 'Swap approved: you now fly VS025/VS026 JFK 12-15 Jan']);
    expect(eve.mail.text).toContain('Swap approved: you now fly VS025/VS026 JFK 12-15 Jan');
    const fay = await told(owner.pilot.id, owner.pilot.email);
    expect(fay.push.body).toBe('Swap approved: you now fly VS003/VS004 JFK 11-14 Jan');
  });

  it('a give-away approved: the giver is told the trip went; refused: both hear the reason', async () => {
    const giver = side('Gus', '300003', ['VS045', 'VS046'], ['2027-01-30', '2027-02-02']);
    const taker = side('Hal', '300004', ['VS000', 'VS000'], ['2027-01-01', '2027-01-01']);
    // A pick-up: the taker proposed with no trip of their own, the giver owns the trip.
    await decide(SUBJECTS.agreementApproved, agreementOf({ pilot: taker.pilot, trip: null }, giver, 'approved'));
    const gus = await told(giver.pilot.id, giver.pilot.email);
    expect(gus.push.body).toBe('Swap approved: VS045/VS046 JFK 30 Jan-2 Feb now goes to Hal Moss');
    const hal = await told(taker.pilot.id, taker.pilot.email);
    expect(hal.push.body).toBe('Swap approved: you now fly VS045/VS046 JFK 30 Jan-2 Feb');

    const one = side('Ivy', '300005', ['VS011', 'VS012'], ['2027-03-01', '2027-03-03']);
    const two = side('Jon', '300006', ['VS013', 'VS014'], ['2027-03-02', '2027-03-04']);
    await decide(SUBJECTS.agreementRefused, agreementOf(one, two, 'refused', 'Training course that week'));
    for (const pilot of [one.pilot, two.pilot]) {
      const heard = await told(pilot.id, pilot.email);
      expect([heard.push.title, heard.push.body]).toEqual(['Swap refused by crewing', 'Swap refused by crewing: Training course that week']);
    }
  });
});
