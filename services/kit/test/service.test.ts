import { IdParams, SUBJECTS } from '@crewswap/proto';
import type { Knex } from 'knex';
import { z } from 'zod';
import {
  ADMIN_COOKIE,
  adminWith,
  afterCommit,
  deleteStreams,
  fixedClock,
  followPilots,
  optional,
  PILOT_COOKIE,
  routes,
  signAdminToken,
  signPilotToken,
  startService,
} from '../src';
import { createTestDatabase, eventually, testBaseConfig, testPilot, TEST_KEYS } from '@crewswap/kit-testing';

const migrations = {
  '0001_pilots': {
    async up(knex: Knex) {
      await knex.schema.createTable('pilots', (table) => {
        table.uuid('id').primary();
        table.string('first_name').notNullable();
        table.boolean('deleted').notNullable().defaultTo(false);
      });
    },
  },
};

const pilotId = '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
const pilotCookie = `${PILOT_COOKIE}=${signPilotToken(TEST_KEYS.privateKey!, { sessionId: '7a1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f', pilotId })}`;
const adminCookie = (permissions: ('manage_pilots' | 'view_analytics')[]) =>
  `${ADMIN_COOKIE}=${signAdminToken(TEST_KEYS.privateKey!, {
    sessionId: '8a1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
    adminId: '9a1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
    isMasterAdmin: false,
    permissions,
  })}`;

describe('startService and routes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const config = () => testBaseConfig(database.url);

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  async function start() {
    return startService({ name: 'kit-service', schema: 'kit_service', migrations, config: config(), options: { clock: fixedClock('2026-11-01T12:00:00Z') } }, ({ app, runtime, clock }) => {
      const route = routes(app);
      route({ method: 'GET', path: '/api/things/{id}', params: IdParams, query: z.strictObject({ q: z.string().optional() }) }, { auth: runtime.guard.pilot }, async ({ session, params, query }) => ({
        pilotId: session.pilotId,
        id: params.id,
        q: query.q ?? null,
        today: clock.today(),
      }));
      route({ method: 'POST', path: '/api/things', body: z.strictObject({ name: z.string('Name is required') }), status: [201] }, { auth: 'none', status: 201 }, async ({ body }) => ({ name: body.name }));
      route({ method: 'DELETE', path: '/api/things/{id}', params: IdParams, status: [204] }, { auth: adminWith(runtime.guard, 'manage_pilots', 'view_analytics'), status: 204 }, async () => undefined);
      route({ method: 'GET', path: '/api/whoami' }, { auth: optional(runtime.guard.pilot) }, async ({ session }) => ({ pilotId: session?.pilotId ?? null }));
      return { extra: 'kept' };
    });
  }

  it('builds the app on a runtime, hands back the extras, and closes once however often asked', async () => {
    const service = await start();
    try {
      expect(service.extra).toBe('kept');
      expect((await service.app.inject({ url: '/readyz' })).statusCode).toBe(200);
      expect((await service.app.inject({ url: '/metrics' })).body).toContain('outbox_unpublished');
    } finally {
      await deleteStreams(service.runtime.bus);
      await service.close();
      await service.close();
    }
  });

  it('hands the builder the settings it was given, the same each time', async () => {
    const given = { get: async () => '7' };
    const seen: unknown[] = [];
    const service = await startService({ name: 'kit-service', schema: 'kit_service', migrations, config: config(), options: { settings: given } }, ({ settings }) => {
      seen.push(settings(), settings(1000));
      return {};
    });
    try {
      expect(seen).toEqual([given, given]);
    } finally {
      await deleteStreams(service.runtime.bus);
      await service.close();
    }
  });

  it('closes the runtime when the builder throws', async () => {
    let runtimeClosed = false;
    await expect(
      startService({ name: 'kit-service', schema: 'kit_service', migrations, config: config() }, ({ runtime }) => {
        runtime.onClose(() => {
          runtimeClosed = true;
        });
        throw new Error('builder failed');
      }),
    ).rejects.toThrow('builder failed');
    expect(runtimeClosed).toBe(true);
  });

  describe('routes', () => {
    let service: Awaited<ReturnType<typeof start>>;
    beforeAll(async () => {
      service = await start();
    });
    afterAll(async () => {
      await deleteStreams(service.runtime.bus);
      await service.close();
    });

    it('checks the session before anything else', async () => {
      const response = await service.app.inject({ url: '/api/things/not-an-id?bad=1' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Session expired' });
    });

    it('parses the id as a schema, then the query, with the kit parse messages', async () => {
      const badId = await service.app.inject({ url: '/api/things/not-an-id?bad=1', headers: { cookie: pilotCookie } });
      expect(badId.statusCode).toBe(400);
      expect(badId.json()).toMatchObject({ error: 'Not a valid id', fields: { id: 'Not a valid id' } });
      const badQuery = await service.app.inject({ url: `/api/things/${pilotId}?bad=1`, headers: { cookie: pilotCookie } });
      expect(badQuery.json()).toMatchObject({ error: 'Unknown field(s): bad' });
      const ok = await service.app.inject({ url: `/api/things/${pilotId}?q=x`, headers: { cookie: pilotCookie } });
      expect(ok.json()).toEqual({ pilotId, id: pilotId, q: 'x', today: '2026-11-01' });
    });

    it('checks a missing body as {} and answers with the route status', async () => {
      const missing = await service.app.inject({ method: 'POST', url: '/api/things' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ error: 'Name is required' });
      const created = await service.app.inject({ method: 'POST', url: '/api/things', payload: { name: 'a' } });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({ name: 'a' });
    });

    it('lets an admin with any one of the permissions in, and answers 204 without a body', async () => {
      const without = await service.app.inject({ method: 'DELETE', url: `/api/things/${pilotId}`, headers: { cookie: adminCookie([]) } });
      expect(without.statusCode).toBe(403);
      expect(without.json()).toEqual({ error: 'You do not have permission to do this.' });
      const withOne = await service.app.inject({ method: 'DELETE', url: `/api/things/${pilotId}`, headers: { cookie: adminCookie(['view_analytics']) } });
      expect(withOne.statusCode).toBe(204);
      expect(withOne.body).toBe('');
    });

    it('treats a caller without a session as anonymous on an optional route', async () => {
      expect((await service.app.inject({ url: '/api/whoami' })).json()).toEqual({ pilotId: null });
      expect((await service.app.inject({ url: '/api/whoami', headers: { cookie: pilotCookie } })).json()).toEqual({ pilotId });
    });

    it('runs afterCommit work only once the transaction commits, never on rollback', async () => {
      const seen: string[] = [];
      await service.runtime.db.transaction(async (trx) => {
        afterCommit(trx, () => seen.push('committed'));
        expect(seen).toEqual([]);
      });
      await eventually(() => seen.length === 1);
      await service.runtime.db
        .transaction(async (trx) => {
          afterCommit(trx, () => seen.push('rolled back'));
          throw new Error('roll back');
        })
        .catch(() => undefined);
      afterCommit(service.runtime.db, () => seen.push('no transaction'));
      expect(seen).toEqual(['committed', 'no transaction']);
    });

    it('follows auth pilot profiles and deletions', async () => {
      const { db, bus, log, outbox } = service.runtime;
      const pilot = testPilot({ id: pilotId, firstName: 'Amy' });
      const consumer = await followPilots({
        db,
        bus,
        log,
        durable: 'kit_service_pilots',
        profile: (profile, _at, trx) => trx('pilots').insert({ id: profile.id, first_name: profile.firstName }).onConflict('id').merge(),
        deleted: (deleted, _at, trx) => trx('pilots').where({ id: deleted.pilotId }).update({ deleted: true }),
      });
      try {
        await db.transaction((trx) => outbox.write(trx, SUBJECTS.pilotRegistered, { pilot }));
        await eventually(async () => (await db('pilots').where({ id: pilotId }).first())?.first_name === 'Amy');
        await db.transaction((trx) => outbox.write(trx, SUBJECTS.pilotDeleted, { pilotId, employeeId: pilot.employeeId }));
        await eventually(async () => (await db('pilots').where({ id: pilotId }).first())?.deleted === true);
      } finally {
        await consumer.stop();
      }
    });
  });
});
