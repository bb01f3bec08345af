/**
 * NATS lets in only our services, each to its own subjects (issue 54): on a nats-server with the
 * users proto defines (the one `make up` and the end-to-end stacks run), a service's traffic
 * passes, and a publish outside its permissions is refused, logged by the kit and seen by NATS.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { AckPolicy } from 'nats';
import { DIRECT, KnownAirportsReply, KnownAirportsRequest, natsPermissions, NATS_SRE_USER, RPC, SUBJECTS, type NatsService } from '@crewswap/proto';
import { connectBus, ensureStreams, follow, publishDirect, requestRpc, serveRpc, type Bus } from '@crewswap/kit';
import { eventually, uniqueName } from '@crewswap/kit-testing';
import { startPrivateNats, type PrivateNats } from '../../../scripts/nats-users';

jest.setTimeout(60_000);

describe('NATS users and permissions', () => {
  const prefix = uniqueName('perm');
  const store = mkdtempSync(join(tmpdir(), 'crewswap-nats-users-'));
  let nats: PrivateNats;
  const buses: Bus[] = [];
  const lines: Record<string, unknown>[] = [];

  /** A kit connection as `service`'s NATS user (or the operators' sre), logging into `lines`. */
  async function connectAs(service: NatsService | typeof NATS_SRE_USER): Promise<Bus> {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach((line) => lines.push(JSON.parse(line))));
    const login = service === NATS_SRE_USER ? nats.sre : nats.logins[service];
    const bus = await connectBus({ url: nats.url, prefix, name: service, log: pino({ level: 'info' }, stream), credentials: { user: login.user, password: login.password } });
    buses.push(bus);
    return bus;
  }

  beforeAll(async () => {
    nats = await startPrivateNats({ prefix, storeDir: store });
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close().catch(() => undefined);
    await nats?.stop();
    rmSync(store, { recursive: true, force: true });
  });

  it('lets no one in without a user, nor with a wrong password', async () => {
    const log = pino({ level: 'silent' });
    await expect(connectBus({ url: nats.url, prefix, name: 'nobody', log })).rejects.toThrow(/Authorization Violation/i);
    await expect(connectBus({ url: nats.url, prefix, name: 'links', log, credentials: { user: 'links', password: 'guessed' } })).rejects.toThrow(/Authorization Violation/i);
  });

  it("passes a service's own traffic: streams made, its events published and followed, its requests answered", async () => {
    const [admin, links, trips] = [await connectAs('admin'), await connectAs('links'), await connectAs('trips')];
    await ensureStreams(links);
    const heard: string[] = [];
    const follower = await follow({ bus: links, log: pino({ level: 'silent' }), stream: 'ADMIN', subjects: [SUBJECTS.adminSessionStarted], handle: (event) => void heard.push(event.data.sessionId) });
    const sessionId = randomUUID();
    const envelope = { id: randomUUID(), type: SUBJECTS.adminSessionStarted, occurredAt: new Date().toISOString(), version: 1, data: { sessionId, adminId: randomUUID() } };
    await admin.js.publish(admin.subject(SUBJECTS.adminSessionStarted), JSON.stringify(envelope));
    await eventually(() => heard.includes(sessionId), 5000);
    await follower.stop();

    const serving = serveRpc({ bus: trips, log: pino({ level: 'silent' }), subject: RPC.knownAirports, request: KnownAirportsRequest, handle: async ({ codes }) => ({ known: codes.filter((code) => code === 'LHR') }) });
    await trips.nc.flush();
    expect(await requestRpc(links, RPC.knownAirports, { codes: ['LHR', 'XXX'] }, KnownAirportsReply)).toEqual({ known: ['LHR'] });
    serving.unsubscribe();
    expect(nats.violations()).toEqual([]);
  });

  it("lets push-sender publish every event of the notifications outbox it relays beside notifications: a mail, a push, preferences", async () => {
    const pushSender = await connectAs('push-sender');
    await ensureStreams(pushSender);
    // Both processes relay the notifications schema's one outbox; whichever leases a batch publishes all of it.
    for (const subject of [SUBJECTS.sendMail, SUBJECTS.sendPush, SUBJECTS.notificationPreferencesChanged]) {
      const envelope = { id: randomUUID(), type: subject, occurredAt: new Date().toISOString(), version: 1, data: {} };
      await expect(pushSender.js.publish(pushSender.subject(subject), JSON.stringify(envelope), { timeout: 2000 })).resolves.toMatchObject({ stream: `${prefix}_NOTIFICATIONS` });
    }
    expect(nats.violations().filter((line) => line.includes('"push-sender"'))).toEqual([]);
  });

  it('refuses a service publishing outside its permissions: the request fails, the kit logs it, NATS logs the violation', async () => {
    const links = await connectAs('links');
    // Links may ask trips for airports, never for a purge.
    await expect(requestRpc(links, RPC.purgeTrips, { retentionDays: 30 }, KnownAirportsReply, 2000)).rejects.toThrow(/trips service is not available/);
    // Only auth publishes auth's events: the stream never acknowledges links' attempt.
    await expect(links.js.publish(links.subject(SUBJECTS.pilotDeleted), '{}', { timeout: 2000 })).rejects.toThrow(/Permissions Violation/i);
    // Pilots' open apps hear from notifications and push-sender, not from links.
    publishDirect(links, DIRECT.realtimePilot(randomUUID()), { type: 'bell-updated', message: 'bell-updated', at: new Date().toISOString() });
    await links.nc.flush();

    const refused = await eventually(() => {
      const found = lines.filter((line) => line.level === 50 && String(line.msg).startsWith('NATS refused'));
      return found.length >= 3 && found;
    });
    expect(refused.map((line) => line.subject)).toEqual(expect.arrayContaining([`${prefix}.${RPC.purgeTrips}`, `${prefix}.${SUBJECTS.pilotDeleted}`, expect.stringMatching(new RegExp(`^${prefix}\\.realtime\\.pilot\\.`))]));
    await eventually(() => nats.violations().filter((line) => line.includes('"links"')).length >= 3);
    expect(nats.violations().join('\n')).toMatch(/Publish Violation/);
  });

  it("lets the operators' user sre see streams and consumers, and refuses it publishing an event, making a consumer or reading a message", async () => {
    const [links, sre] = [await connectAs('links'), await connectAs(NATS_SRE_USER)];
    await ensureStreams(links);
    const stream = links.stream('AUTH');
    const durable = uniqueName('links-reader');
    await links.jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit });

    // What `nats stream report` and `nats consumer info` ask.
    expect((await sre.jsm.streams.info(stream)).config.name).toBe(stream);
    expect((await sre.jsm.streams.list().next()).map((info) => info.config.name)).toContain(stream);
    expect(await sre.jsm.streams.names().next()).toContain(stream);
    expect((await sre.jsm.consumers.list(stream).next()).map((info) => info.name)).toContain(durable);
    expect((await sre.jsm.consumers.info(stream, durable)).name).toBe(durable);

    await expect(sre.js.publish(sre.subject(SUBJECTS.pilotDeleted), '{}', { timeout: 2000 })).rejects.toThrow(/Permissions Violation/i);
    await expect(sre.jsm.consumers.add(stream, { durable_name: uniqueName('sre-reader'), ack_policy: AckPolicy.Explicit })).rejects.toThrow(/Permissions Violation/i);
    await expect(sre.jsm.streams.getMessage(stream, { seq: 1 })).rejects.toThrow(/Permissions Violation/i);
    await eventually(() => nats.violations().filter((line) => line.includes(`"${NATS_SRE_USER}"`)).length >= 3);
    await links.jsm.consumers.delete(stream, durable);
  });

  it('derives every permission from proto, prefixed as the stack prefixes subjects and streams', () => {
    const links = natsPermissions('links', 'p1');
    expect(links.publish.allow).toContain(`p1.${RPC.knownAirports}`);
    expect(links.publish.allow).toContain('$JS.API.CONSUMER.MSG.NEXT.p1_AUTH.*');
    expect(links.publish.allow).not.toContain(`p1.${RPC.purgeTrips}`);
    expect(links.publish.allow.filter((subject) => !subject.startsWith('$JS') && !subject.startsWith('p1.'))).toEqual([]);
    expect(links.subscribe.allow).toEqual(expect.arrayContaining(['_INBOX.>', 'p1.links.rpc.outbox-pending']));
  });
});
