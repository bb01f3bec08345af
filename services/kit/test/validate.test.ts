import pino from 'pino';
import { z } from 'zod';
import { createServiceApp, HttpError, jsonNestedDeeperThan, MAX_INPUT_DEPTH, parse, TOO_DEEP_MESSAGE } from '../src';

describe('parse', () => {
  it('refuses text with a NUL character (Postgres cannot store it) as a 400 naming the field', () => {
    const schema = z.object({ name: z.string(), tags: z.array(z.string()) });
    expect(parse(schema, { name: 'Amy', tags: ['a'] })).toEqual({ name: 'Amy', tags: ['a'] });
    for (const input of [{ name: 'A\u0000my', tags: [] }, { name: 'Amy', tags: ['ok', '\u0000'] }]) {
      try {
        parse(schema, input);
        throw new Error('expected a 400');
      } catch (error) {
        expect(error).toBeInstanceOf(HttpError);
        expect((error as HttpError).status).toBe(400);
        expect((error as HttpError).message).toBe('Text cannot contain NUL characters.');
      }
    }
  });
});

describe('deeply nested input', () => {
  const nested = (depth: number, leaf: unknown = 'x'): unknown => {
    let value = leaf;
    for (let i = 0; i < depth; i += 1) value = i % 2 ? { k: value } : [value];
    return value;
  };

  it('is a 400 with a clear message however deep, never a stack overflow', () => {
    const schema = z.object({ email: z.string(), password: z.string() });
    for (const depth of [33, 4_000, 200_000]) {
      let caught: unknown;
      try {
        parse(schema, { email: nested(depth), password: 'x' });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(HttpError);
      expect([(caught as HttpError).status, (caught as HttpError).message]).toEqual([400, TOO_DEEP_MESSAGE]);
    }
  });

  it('allows 32 levels, which is more than any request needs', () => {
    const schema = z.object({ tree: z.unknown() });
    expect(() => parse(schema, { tree: nested(MAX_INPUT_DEPTH - 1) })).not.toThrow();
    expect(() => parse(schema, { tree: nested(MAX_INPUT_DEPTH) })).toThrow(TOO_DEEP_MESSAGE);
  });

  it('counts brackets in JSON text but not inside strings', () => {
    expect(jsonNestedDeeperThan(`{"a":"${'['.repeat(100)}"}`)).toBe(false);
    expect(jsonNestedDeeperThan(`{"a":"\\"${'['.repeat(100)}"}`)).toBe(false);
    expect(jsonNestedDeeperThan(`${'['.repeat(32)}${']'.repeat(32)}`)).toBe(false);
    expect(jsonNestedDeeperThan(`${'['.repeat(33)}${']'.repeat(33)}`)).toBe(true);
  });

  it('an 8 KB body nested 4,000 deep on a login route is a 400, not a 500', async () => {
    const app = createServiceApp({ name: 'validate-test', logger: pino({ level: 'silent' }), readiness: {} });
    app.post('/api/auth/login', async (request) => parse(z.strictObject({ email: z.string(), password: z.string() }), request.body));
    const payload = `{"email":${'['.repeat(4000)}${']'.repeat(4000)},"password":"x"}`;
    const response = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload });
    expect([response.statusCode, response.json()]).toEqual([400, { error: TOO_DEEP_MESSAGE }]);
    await app.close();
  });
});
