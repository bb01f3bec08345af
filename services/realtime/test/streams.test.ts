/**
 * The realtime service against the real NATS: the stream opens with a pilot cookie, trip changes
 * reach the pilot's other channels, an import says 'trips added', and a session's end closes its
 * streams with the spec's events.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { connectBus, createLogger, deleteStreams, ensureStreams, PILOT_COOKIE, signPilotToken, type Bus } from '@crewswap/kit';
import { eventually, openStream, TEST_KEYS, testBaseConfig, testPilot, testTrip } from '@crewswap/kit-testing';
import { PilotContact, REALTIME_BROADCAST, realtimePilotSubject, SUBJECTS, type TripChangeOrigin } from '@crewswap/proto';
import { createApp, type RealtimeService } from '../src/app';
import { configSchema } from '../src/config';

jest.setTimeout(30_000);

describe('real-time updates', () => {
  let service: RealtimeService;
  let bus: Bus;
  let url: string;
  const base = testBaseConfig('postgres://unused@127.0.0.1/none');

  beforeAll(async () => {
    const config = { ...configSchema.parse({}), ...base };
    bus = await connectBus({ url: base.NATS_URL, prefix: base.NATS_PREFIX, name: 'test', log: createLogger('test', base) });
    await ensureStreams(bus);
    service = await createApp(config, { keys: TEST_KEYS });
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}/api/sse/events`;
  });
  afterAll(async () => {
    await service?.close();
    if (bus) {
      await deleteStreams(bus);
      await bus.close();
    }
  });

  function session(pilotId = randomUUID()) {
    const sessionId = randomUUID();
    return { pilotId, sessionId, cookie: `${PILOT_COOKIE}=${signPilotToken(TEST_KEYS.privateKey, { sessionId, pilotId })}` };
  }

  async function publish(subject: string, data: unknown) {
    const id = randomUUID();
    await bus.js.publish(bus.subject(subject), JSON.stringify({ id, type: subject, occurredAt: new Date().toISOString(), version: 1, data }), { msgID: id });
  }

  it('answers 401 JSON without a session cookie', async () => {
    const stream = await openStream(url);
    expect(stream.status).toBe(401);
    expect(stream.body).toEqual({ error: 'Session expired' });
  });

  it("sends 'connected' first, then 'trips-updated' for a change made on another device but not to the device that made it", async () => {
    const phone = session();
    const laptop = session(phone.pilotId);
    const other = session();
    const [onPhone, onLaptop, otherPilot] = await Promise.all([openStream(url, phone.cookie), openStream(url, laptop.cookie), openStream(url, other.cookie)]);
    expect(onPhone.messages[0]?.type ?? (await onPhone.next('connected')).type).toBe('connected');
    await Promise.all([onLaptop.next('connected'), otherPilot.next('connected')]);

    const origin: TripChangeOrigin = { channel: 'app', sessionId: laptop.sessionId };
    await publish(SUBJECTS.tripUpdated, { trip: testTrip({ pilotId: phone.pilotId }), origin });
    const update = await onPhone.next('trips-updated');
    expect(update).toMatchObject({ type: 'trips-updated', message: 'trips-updated', channel: 'app' });

    // An admin's change reaches both devices; by then the laptop's own change would have too.
    await publish(SUBJECTS.tripDeleted, { tripId: randomUUID(), pilotId: phone.pilotId, origin: { channel: 'admin' } });
    const adminChange = await onLaptop.next('trips-updated');
    expect(adminChange).toMatchObject({ channel: 'admin' });
    expect(onLaptop.messages.filter((m) => m.type === 'trips-updated')).toHaveLength(1);
    expect(otherPilot.messages.filter((m) => m.type === 'trips-updated')).toHaveLength(0);
    for (const s of [onPhone, onLaptop, otherPilot]) s.close();
  });

  it("after a roster import sends one 'trips added' message, not one update per imported trip", async () => {
    const pilot = session();
    const stream = await openStream(url, pilot.cookie);
    await stream.next('connected');
    for (let i = 0; i < 3; i += 1) await publish(SUBJECTS.tripCreated, { trip: testTrip({ pilotId: pilot.pilotId }), origin: { channel: 'roster_email' } });
    await publish(SUBJECTS.rosterProcessed, {
      pilotId: pilot.pilotId,
      historyId: randomUUID(),
      source: 'email',
      processedCount: 3,
      duplicateCount: 1,
      conflictCount: 0,
      skippedCount: 0,
    });
    const added = await stream.next('trips-added');
    expect(added).toMatchObject({ message: '3 trips added', source: 'email', processedCount: 3 });
    expect(stream.messages.filter((m) => m.type === 'trips-updated')).toHaveLength(0);
    stream.close();
  });

  it("tells both pilots of a swap proposal when it changes, and nobody else", async () => {
    const [proposer, owner, stranger] = [session(), session(), session()];
    const streams = await Promise.all([proposer, owner, stranger].map((s) => openStream(url, s.cookie)));
    await Promise.all(streams.map((s) => s.next('connected')));
    const side = (pilotId: string) => ({ pilot: PilotContact.parse(testPilot({ id: pilotId })), trip: testTrip({ pilotId }) });
    const proposal = { id: randomUUID(), status: 'open', proposer: side(proposer.pilotId), owner: side(owner.pilotId), note: null, reason: null, counterOf: null, agreementId: null, createdAt: new Date().toISOString(), decidedAt: null };
    await publish(SUBJECTS.proposalMade, { proposal, by: proposer.pilotId });
    for (const stream of streams.slice(0, 2)) expect(await stream.next('swaps-updated')).toMatchObject({ type: 'swaps-updated', message: 'swaps-updated', change: 'proposal.made' });
    expect(streams[2]!.messages.filter((m) => m.type === 'swaps-updated')).toHaveLength(0);
    for (const stream of streams) stream.close();
  });

  it("a trip crewing moved to another pilot refreshes both pilots' trips: the new holder's and the one it came from", async () => {
    const [giver, taker, stranger] = [session(), session(), session()];
    const streams = await Promise.all([giver, taker, stranger].map((s) => openStream(url, s.cookie)));
    await Promise.all(streams.map((s) => s.next('connected')));
    await publish(SUBJECTS.tripUpdated, { trip: testTrip({ pilotId: taker.pilotId }), origin: { channel: 'system' }, movedFrom: giver.pilotId });
    for (const stream of streams.slice(0, 2)) expect(await stream.next('trips-updated')).toMatchObject({ type: 'trips-updated', channel: 'system' });
    expect(streams[2]!.messages.filter((m) => m.type === 'trips-updated')).toHaveLength(0);
    for (const stream of streams) stream.close();
  });

  it("after a roster import that changed or removed trips sends one 'trips-updated' carrying the change summary", async () => {
    const pilot = session();
    const stream = await openStream(url, pilot.cookie);
    await stream.next('connected');
    const changedTripId = randomUUID();
    await publish(SUBJECTS.tripDeleted, { tripId: randomUUID(), pilotId: pilot.pilotId, origin: { channel: 'roster_upload' } });
    await publish(SUBJECTS.rosterProcessed, {
      pilotId: pilot.pilotId,
      historyId: randomUUID(),
      source: 'manual_upload',
      processedCount: 3,
      duplicateCount: 50,
      conflictCount: 0,
      skippedCount: 0,
      changedCount: 1,
      removedCount: 2,
      changedTripIds: [changedTripId],
    });
    const update = await stream.next('trips-updated');
    expect(update).toMatchObject({
      type: 'trips-updated',
      message: 'trips-updated',
      channel: 'roster_upload',
      changes: { addedCount: 3, changedCount: 1, removedCount: 2, summary: '3 added, 1 changed, 2 removed', changedTripIds: [changedTripId] },
    });
    expect(stream.messages.filter((m) => m.type === 'trips-updated')).toHaveLength(1);
    expect(stream.messages.filter((m) => m.type === 'trips-added')).toHaveLength(0);
    stream.close();
  });

  it("after a fetch of the pilot's roster address tells what it changed on the roster address's channel, trips only added too", async () => {
    const pilot = session();
    const stream = await openStream(url, pilot.cookie);
    await stream.next('connected');
    // The import's own trip events are not told one by one.
    await publish(SUBJECTS.tripDeleted, { tripId: randomUUID(), pilotId: pilot.pilotId, origin: { channel: 'roster_subscription' } });
    const fetched = { pilotId: pilot.pilotId, source: 'subscription', duplicateCount: 7, conflictCount: 0, skippedCount: 0 } as const;
    await publish(SUBJECTS.rosterProcessed, { ...fetched, historyId: randomUUID(), processedCount: 1, changedCount: 0, removedCount: 1 });
    expect(await stream.next('trips-updated')).toMatchObject({ channel: 'roster_subscription', changes: { addedCount: 1, changedCount: 0, removedCount: 1 } });
    await publish(SUBJECTS.rosterProcessed, { ...fetched, historyId: randomUUID(), processedCount: 2, changedCount: 0, removedCount: 0 });
    await eventually(() => stream.messages.filter((m) => m.type === 'trips-updated').length === 2);
    expect(stream.messages.filter((m) => m.type === 'trips-updated').at(-1)).toMatchObject({ channel: 'roster_subscription', changes: { addedCount: 2 } });
    expect(stream.messages.filter((m) => m.type === 'trips-added')).toHaveLength(0);
    stream.close();
  });

  it('passes on an update another service sends to the pilot directly on realtime.pilot.<id>, and to everyone on realtime.broadcast', async () => {
    const pilot = session();
    const other = session();
    const [mine, theirs] = await Promise.all([openStream(url, pilot.cookie), openStream(url, other.cookie)]);
    await Promise.all([mine.next('connected'), theirs.next('connected')]);
    const update = { type: 'trips-updated', message: 'trips-updated', channel: 'admin', at: new Date().toISOString() };
    bus.nc.publish(bus.subject(realtimePilotSubject(pilot.pilotId)), JSON.stringify(update));
    expect(await mine.next('trips-updated')).toEqual(update);
    // An end-of-session frame is not taken from there: only auth's revocations end a stream.
    bus.nc.publish(bus.subject(REALTIME_BROADCAST), JSON.stringify({ type: 'logged_in_elsewhere', message: 'x' }));
    bus.nc.publish(bus.subject(REALTIME_BROADCAST), JSON.stringify({ ...update, channel: 'system' }));
    expect(await theirs.next('trips-updated')).toMatchObject({ channel: 'system' });
    expect(theirs.messages.map((m) => m.type)).not.toContain('logged_in_elsewhere');
    mine.close();
    theirs.close();
  });

  it("passes on push-sender's word that an alert is in the pilot's bell ('bell-updated') to that pilot's streams only", async () => {
    const pilot = session();
    const other = session();
    const [mine, theirs] = await Promise.all([openStream(url, pilot.cookie), openStream(url, other.cookie)]);
    await Promise.all([mine.next('connected'), theirs.next('connected')]);
    const alert = { type: 'bell-updated', message: 'bell-updated', reason: 'wish', at: new Date().toISOString() };
    bus.nc.publish(bus.subject(realtimePilotSubject(pilot.pilotId)), JSON.stringify(alert));
    expect(await mine.next('bell-updated')).toEqual(alert);
    // A marker sent after it to both: by then the other pilot would have had it too.
    const marker = { type: 'trips-updated', message: 'trips-updated', channel: 'system', at: new Date().toISOString() };
    bus.nc.publish(bus.subject(REALTIME_BROADCAST), JSON.stringify(marker));
    await theirs.next('trips-updated');
    expect(theirs.messages.map((m) => m.type)).not.toContain('bell-updated');
    mine.close();
    theirs.close();
  });

  it.each([
    ['logged_in_elsewhere', { type: 'logged_in_elsewhere' }],
    ['admin_shutdown', { type: 'auth_failed', category: 'admin_shutdown' }],
    ['timeout', { type: 'auth_failed', category: 'session_expired' }],
    ['deleted', { type: 'auth_failed', category: 'account_deleted' }],
  ] as const)('when the session ends (%s) sends the error event and closes the stream', async (reason, expected) => {
    const pilot = session();
    const stream = await openStream(url, pilot.cookie);
    await stream.next('connected');
    await publish(SUBJECTS.sessionRevoked, { sessionId: pilot.sessionId, pilotId: pilot.pilotId, reason });
    await stream.ended;
    expect(stream.messages.at(-1)).toMatchObject(expected);
    // The ended session cannot open a stream again.
    expect((await openStream(url, pilot.cookie)).status).toBe(401);
  });

  it('counts open streams in realtime_sse_connections', async () => {
    const pilot = session();
    const stream = await openStream(url, pilot.cookie);
    await stream.next('connected');
    const metrics = await service.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/realtime_sse_connections\{service="realtime"\} [1-9]/);
    stream.close();
    await eventually(() => service.hub.size() === 0);
  });

  it("times a stream's life in sse_stream_duration_seconds, and keeps streams, probes and scrapes out of the request latency histogram", async () => {
    const scrape = async () => (await service.app.inject({ method: 'GET', url: '/metrics' })).body;
    /** A series' value by its name and route, whatever order the labels come in. */
    const sample = (text: string, name: string) =>
      Number(text.split('\n').find((line) => line.startsWith(`${name}{`) && line.includes('route="/api/sse/events"'))?.split(' ')[1] ?? 0);
    const pilot = session();
    const stream = await openStream(url, pilot.cookie);
    await stream.next('connected');
    expect(sample(await scrape(), 'sse_streams_open')).toBe(1);
    const endedBefore = sample(await scrape(), 'sse_stream_duration_seconds_count');
    stream.close();
    await eventually(async () => sample(await scrape(), 'sse_stream_duration_seconds_count') === endedBefore + 1);
    for (const probe of ['/healthz', '/readyz', '/metrics']) await service.app.inject({ method: 'GET', url: probe });
    const text = await scrape();
    expect(sample(text, 'sse_streams_open')).toBe(0);
    const timed = text.split('\n').filter((line) => line.startsWith('http_request_duration_seconds_count{'));
    // Only the streams refused without a session (401), which are requests like any other.
    expect(timed.length).toBeGreaterThan(0);
    for (const line of timed) expect(line).toMatch(/route="\/api\/sse\/events".*status_code="401"|status_code="401".*route="\/api\/sse\/events"/);
  });
});

