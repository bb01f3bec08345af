import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '@crewswap/kit';
import * as proto from '@crewswap/proto';
import { API_ROUTES, routeKey } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { apiDocument, apiDocumentText } from '../src/api-docs';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';
import { ownerOf } from '../src/route-table';

/**
 * Every route the services register, read from their route files: 'PATCH /api/trips/{id}'. A path
 * given by a constant is read from proto's exports; one this cannot read fails the test rather
 * than being passed over. (fuzz-every-route.test.ts checks the same against the running services.)
 */
function registeredRoutes(): string[] {
  const found: string[] = [];
  const constants = proto as unknown as Record<string, unknown>;
  for (const service of readdirSync(repoPath('services'))) {
    const dir = repoPath('services', service, 'src', 'routes');
    let files: string[];
    try {
      files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const match of text.matchAll(/\b(?:route|routes\(app\)|app)\.(get|post|put|patch|delete)\(\s*([^,]+),/g)) {
        const [, method, first] = match as unknown as [string, string, string];
        const literal = /^'(\/api[^']*)'$/.exec(first.trim())?.[1];
        const constant = constants[first.trim()];
        const path = literal ?? (typeof constant === 'string' ? constant : undefined);
        if (!path) throw new Error(`${service}/src/routes/${file}: cannot read the path of route.${method}(${first})`);
        found.push(`${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  }
  return found.sort();
}

describe('the API reference', () => {
  it('docs/openapi.json is the document the catalogue gives today (else run: npm run openapi)', () => {
    expect(readFileSync(repoPath('docs', 'openapi.json'), 'utf8')).toBe(apiDocumentText());
  });

  it('lists exactly the routes the services register', () => {
    expect(API_ROUTES.map(routeKey).sort()).toEqual(registeredRoutes());
  });

  it('has a service of the gateway behind every route, and no route twice', () => {
    expect(API_ROUTES.filter((route) => !ownerOf(route.path.replace(/\{\w+\}/g, 'x'))).map(routeKey)).toEqual([]);
    expect(new Set(API_ROUTES.map(routeKey)).size).toBe(API_ROUTES.length);
  });

  it('describes every route with its parameters, body and answer, and every reference resolves', () => {
    const doc = apiDocument() as { openapi: string; paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: unknown; responses: Record<string, unknown> }>>; components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toBe('3.1.0');
    const trip = doc.paths['/api/trips/{id}']!.patch!;
    expect(trip.parameters!.map((parameter) => parameter.name)).toEqual(['id']);
    expect(trip.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateTripBody' } } } });
    expect(Object.keys(doc.paths['/api/trips/{id}']!.delete!.responses)).toEqual(['204', 'default']);
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map((match) => match[1]!);
    expect(refs.filter((name) => !(name in doc.components.schemas))).toEqual([]);
  });
});

describe('the gateway serves the reference', () => {
  let gateway: FastifyInstance;
  beforeAll(async () => {
    const config = configSchema.parse({ LOG_LEVEL: 'silent', WEB_DIST: mkdtempSync(join(tmpdir(), 'crewswap-dist-')) });
    gateway = (await createApp(config)).app;
    await gateway.ready();
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('GET /api/docs/openapi.json answers the document', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(apiDocument());
  });

  it('GET /api/docs answers a page naming every route, readable without a script', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    for (const route of API_ROUTES) expect(response.body).toContain(`${route.method}</span> <code>${route.path}</code>`);
    expect(response.body).not.toContain('<script');
  });

  it('any other method on the reference is still no such path', async () => {
    const response = await gateway.inject({ method: 'POST', url: '/api/docs', headers: { origin: 'http://localhost:8080' } });
    expect(response.statusCode).toBe(404);
  });
});
