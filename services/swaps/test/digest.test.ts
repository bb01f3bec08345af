import { addDays, DEFAULT_NOTIFICATION_PREFERENCES, SUBJECTS, type EventDataMap } from '@crewswap/proto';
import { startHarness, TODAY, type Harness } from './helpers';

describe('Daily digest', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const mails = async (): Promise<EventDataMap['notifications.cmd.mail'][]> =>
    (await h.db('outbox').where({ subject: SUBJECTS.sendMail }).orderBy('seq')).map((row: { envelope: { data: EventDataMap['notifications.cmd.mail'] } }) => row.envelope.data);
  const wantsDigest = (pilotId: string, hour: number, version = 1) =>
    h.publishAndWait(SUBJECTS.notificationPreferencesChanged, { pilotId, preferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, digest: { hour, timeZone: 'Europe/London' } } }, version);

  it("mails each opted-in pilot, at their hour, the new offers that suit their trips or answer their wishes, grouped by trip, with links; once a day, and nothing when nothing is new", async () => {
    const start = addDays(TODAY, 20);
    const reader = await h.register({ rank: 'CP', fleet: 'A350', firstName: 'Dana' });
    const mine = await h.addTrip(reader, { startDate: start, flightNoStart: 'VS101', flightNoEnd: 'VS102', route: 'JFK' });
    await h.service.app.inject({ method: 'POST', url: '/api/notifications/wishes', cookies: h.cookies(reader), payload: { destinations: ['SEA'] } });
    await wantsDigest(reader.id, 7);
    const lateRiser = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(lateRiser, { startDate: start });
    await wantsDigest(lateRiser.id, 9);
    const nothingNew = await h.register({ rank: 'FO', fleet: 'B787' });
    await h.addTrip(nothingNew, { startDate: start, aircraft: 'B787' });
    await wantsDigest(nothingNew.id, 7);
    const notOptedIn = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(notOptedIn, { startDate: start });

    const owner = await h.register({ rank: 'CP', fleet: 'A350', firstName: 'Olly' });
    const offer = await h.addTrip(owner, { startDate: addDays(start, 1), route: 'LAX', isSwappable: true, swapDescription: 'Family wedding' });
    const owner2 = await h.register({ rank: 'CP', fleet: 'A350' });
    const wished = await h.addTrip(owner2, { startDate: addDays(start, 2), route: 'SEA', isSwappable: true });
    const before = (await mails()).length;

    h.clock.set(`${addDays(TODAY, 1)}T06:30:00Z`); // 06:30 in London: nobody's hour
    expect(await h.service.digest.execute()).toEqual({ readers: 0, mailed: 0 });
    h.clock.set(`${addDays(TODAY, 1)}T07:05:00Z`);
    expect(await h.service.digest.execute()).toEqual({ readers: 2, mailed: 1 });

    const sent = (await mails()).slice(before);
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail).toMatchObject({ to: reader.email, subject: 'CrewSwap daily digest: 2 new swap offers', digestFor: reader.id });
    const text = mail!.text;
    expect(text).toContain('Hello Dana,');
    expect(text).toContain(`Your trip VS101/VS102 JFK, ${start}:`);
    expect(text).toContain(`VS001/VS002 LAX (A350), ${offer.startDate} to ${offer.endDate}: Family wedding - http://localhost:8080/?trip=${mine.id}`);
    // The SEA offer suits the same trip, and the trip comes first: grouped there, once.
    expect(text).toContain(`VS001/VS002 SEA (A350), ${wished.startDate} to ${wished.endDate}`);
    expect(text.split(`/?trip=${mine.id}`).length - 1).toBe(2);
    expect(mail!.html).toContain('Family wedding');

    // Once a day: the same hour again sends nothing.
    h.clock.set(`${addDays(TODAY, 1)}T07:40:00Z`);
    expect((await h.service.digest.execute()).mailed).toBe(0);
    expect((await mails()).slice(before)).toHaveLength(1);
  });

  it('two replicas running the minute at once mail each reader once', async () => {
    const start = addDays(TODAY, 40);
    const reader = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(reader, { startDate: start, route: 'JFK' });
    await wantsDigest(reader.id, 11);
    const owner = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(owner, { startDate: addDays(start, 1), route: 'LAX', isSwappable: true });
    const before = (await mails()).length;

    h.clock.set(`${addDays(TODAY, 3)}T11:05:00Z`);
    const runs = await Promise.all([h.service.digest.execute(), h.service.digest.execute()]);
    expect(runs.reduce((sum, run) => sum + run.mailed, 0)).toBe(1);
    expect((await mails()).slice(before).filter((mail) => mail.digestFor === reader.id)).toHaveLength(1);
  });

  it("lists an offer answering a wish for one trip under that trip, the one the swap rule finds it for", async () => {
    const start = addDays(TODAY, 60);
    const reader = await h.register({ rank: 'FO', fleet: 'A330' });
    const near = await h.addTrip(reader, { startDate: start });
    const far = await h.addTrip(reader, { startDate: addDays(start, 30) });
    const wish = await h.service.app.inject({ method: 'POST', url: '/api/notifications/wishes', cookies: h.cookies(reader), payload: { destinations: ['BOS'], forTripId: far.id } });
    expect(wish.statusCode).toBe(201);
    await wantsDigest(reader.id, 18);
    const owner = await h.register({ rank: 'FO', fleet: 'A330' });
    await h.addTrip(owner, { startDate: addDays(start, 31), route: 'BOS', isSwappable: true });
    const before = (await h.db('outbox').where({ subject: SUBJECTS.sendMail })).length;
    h.clock.set(`${addDays(TODAY, 2)}T18:00:00Z`);
    expect(await h.service.digest.execute()).toMatchObject({ mailed: 1 });
    const [mail] = (await mails()).slice(before);
    expect(mail!.text).toContain(`Your trip VS001/VS002 JFK, ${far.startDate}:`);
    expect(mail!.text).not.toContain(`/?trip=${near.id}`);
  });
});
