import { API_ROUTES } from '@crewswap/proto';
import pino from 'pino';
import { z } from 'zod';
import { createServiceApp, deleteStreams, routes, serializerSchema, startService } from '../src';
import { createTestDatabase, logLines, testBaseConfig } from '../src/testing';

/** A service app whose log lines a test can read. */
function appWith(responseValidation: boolean) {
  const { output, lines } = logLines<{ msg: string; err?: { message: string } }>();
  const app = createServiceApp({ name: 'kit-routes', logger: pino({ level: 'error' }, output), readiness: {}, responseValidation });
  return { app, lines };
}

const Thing = z.object({ id: z.string(), takenOn: z.iso.date(), note: z.string().nullable(), tags: z.record(z.string(), z.number()) });

describe('answers of kit routes', () => {
  it('carry only the fields their proto schema names, whatever the handler returns', async () => {
    const { app } = appWith(false);
    routes(app).get('/api/things/:id', { auth: 'none', response: Thing }, async () => ({
      id: 't1',
      takenOn: '2026-11-01',
      note: null,
      tags: { a: 1 },
      passwordHash: 'secret',
    }));
    const response = await app.inject({ method: 'GET', url: '/api/things/t1' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 't1', takenOn: '2026-11-01', note: null, tags: { a: 1 } });
  });

  it('write nullable values, enums and objects both ways', async () => {
    const { app } = appWith(true);
    const Owned = z.object({ kind: z.enum(['cat', 'dog']).nullable(), owner: z.object({ name: z.string() }).nullable(), age: z.number().int().nullable() });
    const route = routes(app);
    route.get('/api/set', { auth: 'none', response: Owned }, async () => ({ kind: 'cat' as const, owner: { name: 'Ann', email: 'ann@example.com' }, age: 3 }));
    route.get('/api/unset', { auth: 'none', response: Owned }, async () => ({ kind: null, owner: null, age: null }));
    expect((await app.inject({ method: 'GET', url: '/api/set' })).json()).toEqual({ kind: 'cat', owner: { name: 'Ann' }, age: 3 });
    expect((await app.inject({ method: 'GET', url: '/api/unset' })).json()).toEqual({ kind: null, owner: null, age: null });
  });

  it("take the catalogue's schema for their method and path when the route names none", async () => {
    const { app } = appWith(false);
    routes(app).post('/api/auth/logout', { auth: 'none' }, async () => ({ message: 'Signed out', sessionId: 's1' }));
    const response = await app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(response.json()).toEqual({ message: 'Signed out' });
  });

  it('that do not match their schema are a logged 500 when response validation is on', async () => {
    const { app, lines } = appWith(true);
    routes(app).get('/api/things/:id', { auth: 'none', response: Thing }, async () => ({ id: 't1', takenOn: 'yesterday', note: null, tags: {} }));
    const response = await app.inject({ method: 'GET', url: '/api/things/t1' });
    expect(response.statusCode).toBe(500);
    expect(lines.map((line) => line.err?.message)).toContainEqual(expect.stringContaining('GET /api/things/:id answered 200 with what its proto schema refuses: takenOn:'));
  });

  it('that match pass the check, and errors are not checked against the success schema', async () => {
    const { app } = appWith(true);
    const route = routes(app);
    route.get('/api/things/:id', { auth: 'none', response: Thing }, async () => ({ id: 't1', takenOn: '2026-11-01', note: 'n', tags: {} }));
    route.get('/api/missing', { auth: 'none', response: Thing }, async ({ reply }) => reply.status(404).send({ error: 'No such thing.' }));
    expect((await app.inject({ method: 'GET', url: '/api/things/t1' })).statusCode).toBe(200);
    const missing = await app.inject({ method: 'GET', url: '/api/missing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'No such thing.' });
  });

  it('pass unchecked when sent ready-made as JSON text (the one documented exception, Find swaps)', async () => {
    const { app } = appWith(true);
    routes(app).get('/api/things/:id', { auth: 'none', response: Thing }, async ({ reply }) => reply.type('application/json; charset=utf-8').send('{"raw":true}'));
    expect((await app.inject({ method: 'GET', url: '/api/things/t1' })).json()).toEqual({ raw: true });
  });
});

describe('the serializer schemas of the catalogue', () => {
  it('convert every answer schema to JSON Schema that fastify compiles', async () => {
    const { app } = appWith(false);
    for (const [index, route] of API_ROUTES.entries()) {
      if (route.response) app.get(`/check/${index}`, { schema: { response: { 200: serializerSchema(route.response) } } }, async () => ({}));
    }
    await expect(app.ready()).resolves.toBeDefined();
  });
});

describe('a service started with the test config', () => {
  it('checks its answers, so a route answering off its schema fails its tests', async () => {
    const database = await createTestDatabase();
    const service = await startService({ name: 'kit-routes', schema: 'kit_routes', migrations: {}, config: testBaseConfig(database.url) }, ({ app }) => {
      routes(app).get('/api/things/:id', { auth: 'none', response: Thing }, async () => ({ id: 't1', takenOn: 'yesterday', note: null, tags: {} }));
      return {};
    });
    try {
      expect((await service.app.inject({ method: 'GET', url: '/api/things/t1' })).statusCode).toBe(500);
    } finally {
      await deleteStreams(service.runtime.bus);
      await service.close();
      await database.drop();
    }
  });
});

describe('a route that declares no body', () => {
  it.each([
    ['broken JSON', '{"a":', 'application/json'],
    ['a JSON null', 'null', 'application/json'],
    ['a list', '[]', 'application/json'],
    ['an object with a field', '{"rotate":true}', 'application/json'],
  ])('refuses %s with 400 and runs nothing', async (_what, payload, contentType) => {
    const { app } = appWith(false);
    let ran = 0;
    routes(app).post('/api/rotate', { auth: 'none' }, async () => ({ rotated: (ran += 1) }));
    const response = await app.inject({ method: 'POST', url: '/api/rotate', payload, headers: { 'content-type': contentType } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual(expect.any(String));
    expect(ran).toBe(0);
  });

  it('takes no body, an empty one or {}', async () => {
    const { app } = appWith(false);
    routes(app).post('/api/rotate', { auth: 'none' }, async () => ({ rotated: true }));
    for (const payload of [undefined, '', '{}', ' {} ']) {
      const response = await app.inject({ method: 'POST', url: '/api/rotate', ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }) });
      expect(response.statusCode).toBe(200);
    }
  });
});
