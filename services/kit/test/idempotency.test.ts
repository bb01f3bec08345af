import type { Knex } from 'knex';
import { z } from 'zod';
import {
  deleteStreams,
  IDEMPOTENCY_IN_PROGRESS_MESSAGE,
  IDEMPOTENCY_INVALID_MESSAGE,
  IDEMPOTENCY_MISMATCH_MESSAGE,
  PILOT_COOKIE,
  pruneKitTables,
  routes,
  signPilotToken,
  startService,
} from '../src';
import { createTestDatabase, testBaseConfig, TEST_KEYS } from '@crewswap/kit-testing';

const migrations = {
  '0001_notes': {
    async up(knex: Knex) {
      await knex.schema.createTable('notes', (table) => {
        table.increments('id');
        table.string('text').notNullable();
      });
    },
  },
};

const cookieOf = (pilotId: string) => `${PILOT_COOKIE}=${signPilotToken(TEST_KEYS.privateKey!, { sessionId: '7a1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f', pilotId })}`;
const pilotA = cookieOf('6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f');
const pilotB = cookieOf('5f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f');

const Note = z.strictObject({ text: z.string() });
const Written = z.object({ id: z.number(), text: z.string() });

describe('Idempotency-Key on mutating routes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: Awaited<ReturnType<typeof start>>;
  /** Lets a test hold a handler half-way (a duplicate arriving while the first still runs). */
  let gate: Promise<void> | undefined;

  async function start() {
    return startService({ name: 'kit-idempotency', schema: 'kit_idempotency', migrations, config: testBaseConfig(database.url) }, ({ app, runtime }) => {
      const route = routes(app);
      route({ method: 'POST', path: '/api/notes', body: Note, response: Written, status: [201] }, { auth: runtime.guard.pilot, status: 201 }, async ({ body }) => {
        await gate;
        const [row] = await runtime.db('notes').insert({ text: body.text }).returning(['id', 'text']);
        return row as { id: number; text: string };
      });
      route({ method: 'DELETE', path: '/api/notes/{id}', params: z.strictObject({ id: z.coerce.number() }), status: [204] }, { auth: runtime.guard.pilot, status: 204 }, async ({ params }) => {
        const deleted = await runtime.db('notes').where({ id: params.id }).delete();
        if (deleted === 0) throw Object.assign(new Error('gone'), { statusCode: 404 });
        return undefined;
      });
      return {};
    });
  }

  const post = (text: string, headers: Record<string, string>, cookie = pilotA) =>
    service.app.inject({ method: 'POST', url: '/api/notes', headers: { cookie, ...headers }, payload: { text } });
  const notes = () => service.runtime.db('notes').count({ n: '*' }).first().then((row) => Number(row!.n));

  beforeAll(async () => {
    database = await createTestDatabase();
    service = await start();
  });
  afterAll(async () => {
    await deleteStreams(service.runtime.bus);
    await service.close();
    await database.drop();
  });
  beforeEach(async () => {
    gate = undefined;
    await service.runtime.db('notes').delete();
  });

  it('answers the same key again with the first answer and changes nothing more', async () => {
    const first = await post('Swap wanted', { 'idempotency-key': 'offer-1' });
    const again = await post('Swap wanted', { 'idempotency-key': 'offer-1' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await notes()).toBe(1);
  });

  it('keeps each pilot\'s keys apart, and a request without a key runs each time', async () => {
    await post('A', { 'idempotency-key': 'shared' });
    const other = await post('A', { 'idempotency-key': 'shared' }, pilotB);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    await post('A', {});
    await post('A', {});
    expect(await notes()).toBe(4);
  });

  it('refuses the key used again for another body or path with a sentence', async () => {
    await post('First', { 'idempotency-key': 'k-body' });
    const otherBody = await post('Second', { 'idempotency-key': 'k-body' });
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toEqual({ error: IDEMPOTENCY_MISMATCH_MESSAGE });
    const otherPath = await service.app.inject({ method: 'DELETE', url: '/api/notes/1', headers: { cookie: pilotA, 'idempotency-key': 'k-body' } });
    expect(otherPath.statusCode).toBe(422);
    expect(await notes()).toBe(1);
  });

  it('replays a refusal too: a change the server refused is not tried again under its key', async () => {
    const first = await service.app.inject({ method: 'DELETE', url: '/api/notes/999999', headers: { cookie: pilotA, 'idempotency-key': 'gone-1' } });
    await service.runtime.db('notes').insert({ id: 999999, text: 'now here' });
    const again = await service.app.inject({ method: 'DELETE', url: '/api/notes/999999', headers: { cookie: pilotA, 'idempotency-key': 'gone-1' } });
    expect(first.statusCode).toBe(404);
    expect(again.statusCode).toBe(404);
    expect(await notes()).toBe(1);
  });

  it('answers a duplicate that arrives while the first still runs with 409, and the first lands once', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const first = post('Slow', { 'idempotency-key': 'busy-1' });
    // The first has claimed its key once its handler waits at the gate.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const duplicate = await post('Slow', { 'idempotency-key': 'busy-1' });
    open();
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: IDEMPOTENCY_IN_PROGRESS_MESSAGE });
    expect(duplicate.headers['retry-after']).toBeDefined();
    expect((await first).statusCode).toBe(201);
    expect((await post('Slow', { 'idempotency-key': 'busy-1' })).headers['idempotent-replayed']).toBe('true');
    expect(await notes()).toBe(1);
  });

  it('frees the key of a request that failed on the server, so it can be tried again', async () => {
    gate = Promise.reject(new Error('database away'));
    gate.catch(() => undefined);
    expect((await post('Later', { 'idempotency-key': 'retry-1' })).statusCode).toBe(500);
    gate = undefined;
    const retried = await post('Later', { 'idempotency-key': 'retry-1' });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await notes()).toBe(1);
  });

  it.each([[''], ['x'.repeat(201)], ['has space'], ['café']])('refuses the key %j with a sentence', async (key) => {
    const response = await service.app.inject({ method: 'POST', url: '/api/notes', headers: { cookie: pilotA, 'idempotency-key': Buffer.from(key, 'utf8').toString('latin1') }, payload: { text: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: IDEMPOTENCY_INVALID_MESSAGE });
    expect(await notes()).toBe(0);
  });

  it('keeps keys 24 hours: the pruner removes older ones, and an older key is a new request', async () => {
    await post('Old', { 'idempotency-key': 'day-old' });
    await post('New', { 'idempotency-key': 'fresh' });
    await service.runtime.db('idempotency_keys').where({ key: 'day-old' }).update({ created_at: service.runtime.db.raw("now() - interval '25 hours'") });
    expect((await post('Old', { 'idempotency-key': 'day-old' })).headers['idempotent-replayed']).toBeUndefined();
    await service.runtime.db('idempotency_keys').where({ key: 'day-old' }).update({ created_at: service.runtime.db.raw("now() - interval '25 hours'") });
    expect((await pruneKitTables(service.runtime.db, new Date())).idempotencyKeys).toBe(1);
    expect(await service.runtime.db('idempotency_keys').whereIn('key', ['day-old', 'fresh']).pluck('key')).toEqual(['fresh']);
  });
});
