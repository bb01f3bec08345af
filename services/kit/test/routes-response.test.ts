import { API, API_ROUTES } from '@crewswap/proto';
import pino from 'pino';
import { z } from 'zod';
import { createServiceApp, deleteStreams, routes, serializerSchema, startService } from '../src';
import { createTestDatabase, logLines, testBaseConfig } from '@crewswap/kit-testing';

/** A service app whose log lines a test can read. */
function appWith(responseValidation: boolean) {
  const { output, lines } = logLines<{ msg: string; err?: { message: string } }>();
  const app = createServiceApp({ name: 'kit-routes', logger: pino({ level: 'error' }, output), readiness: {}, responseValidation });
  return { app, lines };
}

const Thing = z.object({ id: z.string(), takenOn: z.iso.date(), note: z.string().nullable(), tags: z.record(z.string(), z.number()) });
/** A route answering a Thing, declared as a catalogue entry is. */
const GET_THING = { method: 'GET', path: '/api/things/{id}', response: Thing } as const;

describe('answers of kit routes', () => {
  it('carry only the fields their proto schema names, whatever the handler returns', async () => {
    const { app } = appWith(false);
    routes(app)(GET_THING, { auth: 'none' }, async () => ({
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
    route({ method: 'GET', path: '/api/set', response: Owned }, { auth: 'none' }, async () => ({ kind: 'cat' as const, owner: { name: 'Ann', email: 'ann@example.com' }, age: 3 }));
    route({ method: 'GET', path: '/api/unset', response: Owned }, { auth: 'none' }, async () => ({ kind: null, owner: null, age: null }));
    expect((await app.inject({ method: 'GET', url: '/api/set' })).json()).toEqual({ kind: 'cat', owner: { name: 'Ann' }, age: 3 });
    expect((await app.inject({ method: 'GET', url: '/api/unset' })).json()).toEqual({ kind: null, owner: null, age: null });
  });

  it('take their method, path and schema from their catalogue entry', async () => {
    const { app } = appWith(false);
    routes(app)(API.logout, { auth: 'none' }, async () => ({ message: 'Signed out', sessionId: 's1' }));
    const response = await app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(response.json()).toEqual({ message: 'Signed out' });
  });

  it('that do not match their schema are a logged 500 when response validation is on', async () => {
    const { app, lines } = appWith(true);
    routes(app)(GET_THING, { auth: 'none' }, async () => ({ id: 't1', takenOn: 'yesterday', note: null, tags: {} }));
    const response = await app.inject({ method: 'GET', url: '/api/things/t1' });
    expect(response.statusCode).toBe(500);
    expect(lines.map((line) => line.err?.message)).toContainEqual(expect.stringContaining('GET /api/things/:id answered 200 with what its proto schema refuses: takenOn:'));
  });

  it('that match pass the check, and errors are not checked against the success schema', async () => {
    const { app } = appWith(true);
    const route = routes(app);
    route(GET_THING, { auth: 'none' }, async () => ({ id: 't1', takenOn: '2026-11-01', note: 'n', tags: {} }));
    route({ method: 'GET', path: '/api/missing', response: Thing }, { auth: 'none' }, async ({ reply }) => reply.status(404).send({ error: 'No such thing.' }));
    expect((await app.inject({ method: 'GET', url: '/api/things/t1' })).statusCode).toBe(200);
    const missing = await app.inject({ method: 'GET', url: '/api/missing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'No such thing.' });
  });

  it('pass unchecked when sent ready-made as JSON text (the one documented exception, Find swaps)', async () => {
    const { app } = appWith(true);
    routes(app)(GET_THING, { auth: 'none' }, async ({ reply }) => reply.type('application/json; charset=utf-8').send('{"raw":true}'));
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
      routes(app)(GET_THING, { auth: 'none' }, async () => ({ id: 't1', takenOn: 'yesterday', note: null, tags: {} }));
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
  const ROTATE = { method: 'POST', path: '/api/rotate' } as const;

  it.each([
    ['broken JSON', '{"a":', 'application/json'],
    ['a JSON null', 'null', 'application/json'],
    ['a list', '[]', 'application/json'],
    ['an object with a field', '{"rotate":true}', 'application/json'],
  ])('refuses %s with 400 and runs nothing', async (_what, payload, contentType) => {
    const { app } = appWith(false);
    let ran = 0;
    routes(app)(ROTATE, { auth: 'none' }, async () => ({ rotated: (ran += 1) }));
    const response = await app.inject({ method: 'POST', url: '/api/rotate', payload, headers: { 'content-type': contentType } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual(expect.any(String));
    expect(ran).toBe(0);
  });

  it('takes no body, an empty one or {}', async () => {
    const { app } = appWith(false);
    routes(app)(ROTATE, { auth: 'none' }, async () => ({ rotated: true }));
    for (const payload of [undefined, '', '{}', ' {} ']) {
      const response = await app.inject({ method: 'POST', url: '/api/rotate', ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }) });
      expect(response.statusCode).toBe(200);
    }
  });
});

describe('a route registered by its catalogue entry', () => {
  it('checks the body the entry declares, and the handler never runs on one it refuses', async () => {
    const { app } = appWith(false);
    const seen: string[] = [];
    routes(app)(API.login, { auth: 'none' }, async ({ body, reply }) => {
      seen.push(body.email);
      return reply.status(204).send();
    });
    const refused = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'amy@example.com' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual(expect.any(String));
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ' Amy@Example.com ', password: 'x' } });
    // The entry's schema ran: it trims and lowers the address before the handler sees it.
    expect(seen).toEqual(['amy@example.com']);
  });

  it("types the handler's input and answer with the entry's schemas", async () => {
    const { app } = appWith(false);
    const route = routes(app);
    route(API.login, { auth: 'none' }, async ({ body, reply }) => {
      // @ts-expect-error LoginBody has no such field
      void body.nope;
      return reply.send();
    });
    route(
      API.logout,
      { auth: 'none' },
      // @ts-expect-error MessageResponse's message is text
      async () => ({ message: 1 }),
    );
    await expect(app.ready()).resolves.toBeDefined();
  });

  it('leaves the declared body to a handler that reads it itself', async () => {
    const { app } = appWith(false);
    const upload = { method: 'POST', path: '/api/upload', body: z.strictObject({ name: z.string() }) } as const;
    routes(app)(upload, { auth: 'none', handlerReadsBody: true }, async ({ body, request }) => ({ checked: body !== undefined, sent: request.body }));
    const response = await app.inject({ method: 'POST', url: '/api/upload', payload: { file: 'x' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ checked: false, sent: { file: 'x' } });
  });

  it('refuses a success status the entry does not name, so the document cannot promise another', () => {
    const { app } = appWith(false);
    expect(() => routes(app)(API.login, { auth: 'none', status: 201 }, async ({ reply }) => reply.send())).toThrow(
      'POST /api/auth/login answers 201, which its declaration (200) does not name',
    );
  });
});
