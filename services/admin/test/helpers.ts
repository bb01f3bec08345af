import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, deleteStreams, fixedClock } from '@crewswap/kit';
import { createTestDatabase, testBaseConfig, uniqueName } from '@crewswap/kit-testing';
import type { Permission } from '@crewswap/proto';
import type { LightMyRequestResponse } from 'fastify';
import { createApp, type AdminService } from '../src/app';
import { configSchema, type AdminConfig } from '../src/config';
import { createAdminRepository } from '../src/data/admin-repository';
import { hashPassword } from '../src/domain/passwords';

export const MASTER = { email: 'chief@crewswap.test', password: 'master-secret-1' };

export type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/** A config for one test file: its own database and NATS prefix, admin variables on top. */
export function adminConfig(databaseUrl: string, prefix: string, env: Record<string, string> = {}): AdminConfig {
  return { ...configSchema.parse({ ADMIN_EMAIL: MASTER.email, ADMIN_PASSWORD: MASTER.password, ...env }), ...testBaseConfig(databaseUrl, prefix) };
}

export async function startAdmin(database: TestDatabase, options: { prefix?: string; env?: Record<string, string>; clock?: ReturnType<typeof fixedClock> } = {}) {
  const prefix = options.prefix ?? uniqueName('t');
  const clock = options.clock ?? fixedClock('2026-11-23T10:15:00Z');
  const service = await createApp(adminConfig(database.url, prefix, options.env), { clock });
  return { ...service, prefix, clock };
}

export async function stopAdmin(service: AdminService, options: { deleteStreams?: boolean } = {}): Promise<void> {
  if (options.deleteStreams !== false) await deleteStreams(service.runtime.bus);
  await service.close();
}

export function cookieOf(response: LightMyRequestResponse, name = ADMIN_COOKIE): string {
  const cookie = response.cookies.find((c) => c.name === name);
  if (!cookie) throw new Error(`no ${name} cookie in the response (status ${response.statusCode}: ${response.body})`);
  return cookie.value;
}

export async function login(service: AdminService, email: string, password: string): Promise<string> {
  const response = await service.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password } });
  return cookieOf(response);
}

/** An ordinary admin with exactly these permissions, created through the repository; answers its session cookie. */
export async function adminWith(service: AdminService, permissions: Permission[]): Promise<string> {
  const email = `${randomUUID()}@crewswap.test`;
  await createAdminRepository(service.runtime.db).insert({
    id: randomUUID(),
    email,
    name: 'Test Admin',
    isMasterAdmin: false,
    permissions,
    passwordHash: await hashPassword('password1'),
  });
  return login(service, email, 'password1');
}

/** Bodies a careless or hostile client might send: wrong types, huge strings, unknown fields. */
export const FUZZ_BODIES: string[] = [
  'null',
  '1',
  '"text"',
  '[]',
  'true',
  '{}',
  '{"email": 1, "password": 2}',
  '{"email": ["a"], "password": {"b": 1}}',
  '{"email": null, "password": null}',
  JSON.stringify({ email: 'x'.repeat(100_000), password: 'y' }),
  JSON.stringify({ email: 'a@b.test', password: 'p'.repeat(100_000) }),
  JSON.stringify({ email: 'a@b.test', password: 'secret', role: 'master' }),
  '{"value": 1e400}',
  '{"value": {"$gt": ""}}',
  '{"value": ["a"]}',
  '{"value": null}',
  JSON.stringify({ value: 'v'.repeat(100_000) }),
  '{"value": "x", "key": "testing_password"}',
  '{"__proto__": {"isMasterAdmin": true}}',
  '{not json',
];
