import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '@crewswap/kit';
import { API_ROUTES, routeKey } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import { apiDocument, apiDocumentText } from '../src/api-docs';
import { createApp } from '../src/app';
import { configSchema } from '../src/config';
import { ownerOf } from '../src/route-table';

// The services register their routes by these same entries (the kit reads method, path and
// schemas from them); fuzz-every-route.test.ts checks the running services serve exactly these.
describe('the API reference', () => {
  it('docs/openapi.json is the document the catalogue gives today (else run: npm run openapi)', () => {
    expect(readFileSync(repoPath('docs', 'openapi.json'), 'utf8')).toBe(apiDocumentText());
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
