import { addDays, DEFAULT_NOTIFICATION_PREFERENCES, SUBJECTS, type Trip } from '@crewswap/proto';
import { randomUUID } from 'node:crypto';
import { eventually } from '@crewswap/kit-testing';
import { AckPolicy, DeliverPolicy } from 'nats';
import { descriptionHash } from '../src/domain/alert-offer';
import { NO_DESCRIPTION_MESSAGE, NOBODY_NEW_MESSAGE, NOT_OFFERED_MESSAGE, SENT_MESSAGE } from '../src/domain/push-alert';
import { freshDate, makeTrip, startHarness, type Harness } from './helpers';

describe('Swap alerts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const recipientsOf = async (tripId: string) => (await h.pushedFor(tripId)).map((push) => push.pilotId).sort();
  const offerAgain = (trip: Trip, changes: Partial<Trip> = {}) => h.publishAndWait(SUBJECTS.tripOffered, { trip: { ...trip, ...changes } });

  it('alerts every pilot with a compatible trip around the offer when a trip is offered, never the owner', async () => {
    const start = freshDate();
    const owner = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(owner, { startDate: addDays(start, 1) });
    const sameFleet = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(sameFleet, { startDate: addDays(start, -2) });
    const sff = await h.register({ rank: 'CP', fleet: 'SFF' });
    await h.addTrip(sff, { startDate: start, aircraft: 'A350' });
    const sffOnSff = await h.register({ rank: 'CP', fleet: 'SFF' });
    await h.addTrip(sffOnSff, { startDate: start, aircraft: 'SFF' });
    const officer = await h.register({ rank: 'FO', fleet: 'A350' });
    await h.addTrip(officer, { startDate: start });
    const tooFar = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(tooFar, { startDate: addDays(start, 5) });
    const noTrips = await h.register({ rank: 'CP', fleet: 'A350' });
    const standbyOnly = await h.register({ rank: 'CP', fleet: 'A350' });
    await h.addTrip(standbyOnly, { startDate: start, aircraft: null, isStandby: true, flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY' });

    const offer = await h.addTrip(owner, { startDate: start, isSwappable: true, swapDescription: 'Need the weekend off' });

    const pushes = await h.pushedFor(offer.id);
    expect(pushes.map((push) => push.pilotId).sort()).toEqual([sameFleet.id, sff.id].sort());
    expect(pushes[0]).toEqual({
      pilotId: expect.any(String),
      kind: 'swap_offer',
      title: 'New swap offer',
      body: `${owner.firstName} ${owner.lastName} offers VS001/VS002 JFK (A350), ${start} to ${addDays(start, 3)}: Need the weekend off`,
      url: '/',
      dedupeKey: expect.stringMatching(new RegExp(`^swap_offer:${offer.id}:`)),
      reason: 'offer',
      urgent: false,
    });
    expect([owner.id, sffOnSff.id, officer.id, tooFar.id, noTrips.id, standbyOnly.id].some((id) => pushes.some((p) => p.pilotId === id))).toBe(false);
  });

  it('alerts only pilots with swap alerts on: notifications off or swap alerts off leave a pilot out, and only the newest preference counts', async () => {
    const start = freshDate();
    const owner = await h.register();
    const [on, swapOff, allOff, changedMind] = [await h.register(), await h.register(), await h.register(), await h.register()];
    for (const pilot of [on, swapOff, allOff, changedMind]) await h.addTrip(pilot, { startDate: start });
    const prefs = (enabled: boolean, swapNotifications: boolean) => ({ ...DEFAULT_NOTIFICATION_PREFERENCES, enabled, swapNotifications });
    await h.publishAndWait(SUBJECTS.notificationPreferencesChanged, { pilotId: swapOff.id, preferences: prefs(true, false) }, 1);
    await h.publishAndWait(SUBJECTS.notificationPreferencesChanged, { pilotId: allOff.id, preferences: prefs(false, true) }, 1);
    // Version 2 (on again) arrives before version 1 (off): version 1 is older and changes nothing.
    await h.publishAndWait(SUBJECTS.notificationPreferencesChanged, { pilotId: changedMind.id, preferences: prefs(true, true) }, 2);
    await h.publishAndWait(SUBJECTS.notificationPreferencesChanged, { pilotId: changedMind.id, preferences: prefs(true, false) }, 1);

    const offer = await h.addTrip(owner, { startDate: start, isSwappable: true });
    expect(await recipientsOf(offer.id)).toEqual([on.id, changedMind.id].sort());
  });

  it("measures each recipient's trip with that pilot's own window: trip range, else searchDayRange, else the setting", async () => {
    const start = freshDate();
    const owner = await h.register();
    const narrow = await h.register({ searchDayRange: 1 });
    await h.addTrip(narrow, { startDate: addDays(start, 2) });
    const wide = await h.register({ searchDayRange: 6 });
    await h.addTrip(wide, { startDate: addDays(start, 6) });
    const byTripRange = await h.register({ searchDayRange: 0 });
    await h.addTrip(byTripRange, { startDate: addDays(start, 3), searchStartDate: start, searchEndDate: addDays(start, 3) });
    const bySetting = await h.register();
    await h.addTrip(bySetting, { startDate: addDays(start, -4) });
    const pastSetting = await h.register();
    await h.addTrip(pastSetting, { startDate: addDays(start, -5) });

    const offer = await h.addTrip(owner, { startDate: start, isSwappable: true });
    expect(await recipientsOf(offer.id)).toEqual([wide.id, byTripRange.id, bySetting.id].sort());
  });

  it('alerts only LTC captains of a training trip offered for swap', async () => {
    const start = freshDate();
    const owner = await h.register({ rank: 'CP', ltc: true });
    const trainer = await h.register({ rank: 'CP', ltc: true });
    await h.addTrip(trainer, { startDate: start });
    const captain = await h.register({ rank: 'CP', ltc: false });
    await h.addTrip(captain, { startDate: start });

    const training = await h.addTrip(owner, { startDate: start, training: true, isSwappable: true });
    expect(await recipientsOf(training.id)).toEqual([trainer.id]);
    expect((await h.pushedFor(training.id))[0]!.title).toBe('New training swap offer');
  });

  it('alerts each pilot once per offer and description, and again after the description changes', async () => {
    const start = freshDate();
    const owner = await h.register();
    const first = await h.register();
    await h.addTrip(first, { startDate: start });
    const offer = await h.addTrip(owner, { startDate: start, isSwappable: true, swapDescription: 'Swap please' });
    expect(await recipientsOf(offer.id)).toEqual([first.id]);

    // Offered again (cancelled and re-offered) with the same description: nobody hears twice.
    await offerAgain(offer, { updatedAt: '2026-10-02T00:00:00.000Z' });
    const pressed = await h.pushAlert(owner, offer.id);
    expect(pressed.statusCode).toBe(200);
    expect(pressed.json()).toEqual({ message: NOBODY_NEW_MESSAGE, alerted: 0 });
    expect(await recipientsOf(offer.id)).toEqual([first.id]);

    // A pilot whose trip arrives later is new to this offer: Push Alert reaches only them.
    const second = await h.register();
    await h.addTrip(second, { startDate: addDays(start, 1) });
    expect((await h.pushAlert(owner, offer.id)).json()).toEqual({ message: SENT_MESSAGE, alerted: 1 });
    expect(await recipientsOf(offer.id)).toEqual([first.id, second.id].sort());

    // A new description is news for everyone again.
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...offer, swapDescription: 'Swap please, any destination' } });
    expect((await h.pushAlert(owner, offer.id)).json()).toEqual({ message: SENT_MESSAGE, alerted: 2 });
    const sent = await h.service.alerts.sentFor(h.db, offer.id);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((row) => row.descriptionHash))).toEqual(new Set([descriptionHash('Swap please'), descriptionHash('Swap please, any destination')]));
  });

  it('sends the alerts to notifications through the NOTIFICATIONS stream, one command per recipient', async () => {
    const start = freshDate();
    const owner = await h.register();
    const recipients = [await h.register(), await h.register(), await h.register()];
    for (const pilot of recipients) await h.addTrip(pilot, { startDate: start });
    const offer = await h.addTrip(owner, { startDate: start, isSwappable: true });

    const { bus } = h.service.runtime;
    const stream = bus.stream('NOTIFICATIONS');
    const name = `alerts_test_${Date.now()}`;
    await bus.jsm.consumers.add(stream, { name, ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All, filter_subject: bus.subject(SUBJECTS.sendPush) });
    const consumer = await bus.js.consumers.get(stream, name);
    const seen: string[] = [];
    const deadline = Date.now() + 10_000;
    while (seen.length < 3 && Date.now() < deadline) {
      const batch = await consumer.fetch({ max_messages: 100, expires: 1000 });
      for await (const message of batch) {
        const { data } = message.json<{ data: { pilotId: string; dedupeKey: string } }>();
        if (data.dedupeKey.startsWith(`swap_offer:${offer.id}:`)) seen.push(data.pilotId);
      }
    }
    await bus.jsm.consumers.delete(stream, name);
    expect(seen.sort()).toEqual(recipients.map((pilot) => pilot.id).sort());
  });

  it('alerts nobody for an offer that has already started, a standby duty, or an offer older than a newer change', async () => {
    const owner = await h.register();
    const other = await h.register();
    await h.addTrip(other, { startDate: '2026-10-30' });
    const started = await h.addTrip(owner, { startDate: '2026-10-31', isSwappable: true });
    expect(await h.pushedFor(started.id)).toEqual([]);
    const standby = await h.addTrip(owner, { startDate: '2026-11-02', aircraft: null, isStandby: true, flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY', isSwappable: true });
    await h.addTrip(other, { startDate: '2026-11-03', aircraft: null, isStandby: true, flightNoStart: 'VS000', flightNoEnd: 'VS000', route: 'SBY' });
    expect(await h.pushedFor(standby.id)).toEqual([]);

    const start = freshDate();
    await h.addTrip(other, { startDate: start });
    const trip = await h.addTrip(owner, { startDate: start });
    // The offer is withdrawn (version 2) before the older offered event (version 1) arrives.
    await h.publishAndWait(SUBJECTS.tripUpdated, { trip: { ...trip, isSwappable: false } }, 2);
    await h.publishAndWait(SUBJECTS.tripOffered, { trip: { ...trip, isSwappable: true } }, 1);
    expect(await h.pushedFor(trip.id)).toEqual([]);
  });

  it('alerts nobody about an offer event older than a day (a new consumer replaying history)', async () => {
    const start = freshDate();
    const owner = await h.register();
    const other = await h.register();
    await h.addTrip(other, { startDate: start });
    const trip = makeTrip(owner, { startDate: start, isSwappable: true });
    const { bus } = h.service.runtime;
    const old = { id: randomUUID(), type: SUBJECTS.tripOffered, occurredAt: new Date(h.clock.now().getTime() - 25 * 3600_000).toISOString(), version: 1, data: { trip } };
    await bus.js.publish(bus.subject(SUBJECTS.tripOffered), JSON.stringify(old), { msgID: old.id });
    await h.applied(old);
    expect(await h.service.readModel.findTrip(trip.id)).toEqual(trip);
    expect(await h.pushedFor(trip.id)).toEqual([]);
  });

  describe('Push Alert: POST /api/trips/{id}/send-notifications', () => {
    it("answers 404 for another pilot's trip and an unknown one, and 401 without a session", async () => {
      const owner = await h.register();
      const offer = await h.addTrip(owner, { startDate: freshDate(), isSwappable: true, swapDescription: 'Swap?' });
      const stranger = await h.register();
      const response = await h.pushAlert(stranger, offer.id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Trip not found' });
      expect((await h.pushAlert(owner, '0b7e9a52-4d5e-4f60-8a71-92b3c4d5e6f7')).statusCode).toBe(404);
      expect((await h.service.app.inject({ method: 'POST', url: `/api/trips/${offer.id}/send-notifications` })).statusCode).toBe(401);
    });

    it('refuses a trip that is not offered and an offer without a description', async () => {
      const owner = await h.register();
      const kept = await h.addTrip(owner, { startDate: freshDate(), swapDescription: 'Swap?' });
      expect((await h.pushAlert(owner, kept.id)).json()).toEqual({ error: NOT_OFFERED_MESSAGE });
      const bare = await h.addTrip(owner, { startDate: freshDate(), isSwappable: true, swapDescription: '  ' });
      const response = await h.pushAlert(owner, bare.id);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: NO_DESCRIPTION_MESSAGE });
    });

    it('sends the description saved a moment ago, waiting for the read model to catch up', async () => {
      const start = freshDate();
      const owner = await h.register();
      const other = await h.register();
      await h.addTrip(other, { startDate: start });
      const offer = await h.addTrip(owner, { startDate: start, isSwappable: true });
      // Hold the trip's row so the consumer cannot apply the change until we let go.
      const hold = await h.db.transaction();
      await hold('trips').where({ id: offer.id }).forUpdate().first();
      const saved = await h.publish(SUBJECTS.tripUpdated, { trip: { ...offer, swapDescription: 'Just typed' } });
      await eventually(() => h.publisher.db('outbox').where({ id: saved.id }).whereNotNull('published_at').first());
      setTimeout(() => void hold.commit(), 300);
      const response = await h.pushAlert(owner, offer.id);
      expect(response.json()).toEqual({ message: SENT_MESSAGE, alerted: 1 });
      expect((await h.pushedFor(offer.id)).map((push) => push.body.endsWith(': Just typed'))).toEqual([false, true]);
    });

    it.each([
      ['an unknown field', JSON.stringify({ force: true }), 'Unknown field(s): force'],
      ['a body that is not JSON', '{"', 'The request body is not valid JSON.'],
      ['a list', JSON.stringify([1, 2]), undefined],
      ['a huge string', JSON.stringify('x'.repeat(100_000)), undefined],
    ])('answers 400 for %s', async (_name, payload, message) => {
      const owner = await h.register();
      const offer = await h.addTrip(owner, { startDate: freshDate(), isSwappable: true, swapDescription: 'Swap?' });
      const response = await h.service.app.inject({
        method: 'POST',
        url: `/api/trips/${offer.id}/send-notifications`,
        cookies: h.cookies(owner),
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      const body = response.json() as { error: string };
      expect(typeof body.error).toBe('string');
      if (message) expect(body.error).toBe(message);
    });

    it('accepts an empty JSON body or {}', async () => {
      const owner = await h.register();
      const offer = await h.addTrip(owner, { startDate: freshDate(), isSwappable: true, swapDescription: 'Swap?' });
      for (const payload of ['', '{}']) {
        const response = await h.service.app.inject({
          method: 'POST',
          url: `/api/trips/${offer.id}/send-notifications`,
          cookies: h.cookies(owner),
          headers: { 'content-type': 'application/json' },
          payload,
        });
        expect(response.statusCode).toBe(200);
      }
    });
  });
});
