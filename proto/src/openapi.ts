import { z } from 'zod';
import { API_ROUTES, type ApiRoute } from './api';
import * as proto from './index';

type JsonSchema = Record<string, unknown>;

export interface OpenApiOptions {
  /** The session cookies' names (the kit's), for the document's security schemes. */
  cookies: { pilot: string; admin: string };
}

const REF = '#/components/schemas/';

/**
 * The OpenAPI 3.1 document of the public API, built from the route catalogue (API_ROUTES) and
 * the proto schemas it names: nothing about a route is written twice. Every exported proto
 * schema a route reaches becomes a component under its export name; a schema that reads
 * differently as a request than as an answer (defaults, transforms) also gets a `...Input` one.
 */
export function openApiDocument(options: OpenApiOptions, routes: readonly ApiRoute[] = API_ROUTES): JsonSchema {
  const names = schemaNames();
  const output = generate('output', names, routes, (route) => [route.response], () => false);
  const outputNames = new Set(Object.keys(output.components));
  const input = generate('input', names, routes, (route) => [route.params, route.query, route.body], (name) => outputNames.has(name));
  const same = sameAsOutput(input.components, output.components);
  for (const name of same.keys()) delete input.components[name];
  const toOutput = (value: JsonSchema) => rewriteRefs(value, same);
  for (const [name, schema] of Object.entries(input.components)) input.components[name] = toOutput(schema);
  for (const [key, schema] of input.roots) input.roots.set(key, toOutput(schema));

  const paths: Record<string, Record<string, unknown>> = {};
  routes.forEach((route, index) => {
    const operation: Record<string, unknown> = {
      operationId: operationId(route),
      summary: route.summary,
      tags: [tagOf(route)],
      security: route.auth === 'none' ? [] : [{ [`${route.auth}Session`]: [] }],
    };
    const parameters = [
      ...parametersOf(input.roots.get(`${index}:0`), 'path', input.components),
      ...parametersOf(input.roots.get(`${index}:1`), 'query', input.components),
      ...(takesIdempotencyKey(route) ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ];
    if (parameters.length > 0) operation.parameters = parameters;
    const body = input.roots.get(`${index}:2`);
    if (body) operation.requestBody = { required: true, content: { 'application/json': { schema: body } } };
    if (route.upload) {
      operation.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object', properties: { [route.upload]: { type: 'string', format: 'binary' } }, required: [route.upload] } } },
      };
    }
    const answer = output.roots.get(`${index}:0`);
    const responses: Record<string, unknown> = {};
    for (const status of route.status ?? [200]) {
      if (status === 204) responses[status] = { description: 'Done, no content' };
      else if (!answer) responses[status] = { description: 'Success (its JSON is not described yet)' };
      else responses[status] = { description: 'Success', content: { [route.contentType ?? (route.stream ? 'text/event-stream' : 'application/json')]: { schema: answer } } };
    }
    responses.default = { description: 'An error: 4xx or 5xx with a message', content: { 'application/json': { schema: { $ref: `${REF}ErrorBody` } } } };
    operation.responses = responses;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  });

  const errorBody = z.toJSONSchema(proto.ErrorBody, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const schemas = sortKeys({ ...output.components, ...input.components, ErrorBody: clean(errorBody) });
  return {
    openapi: '3.1.0',
    info: {
      title: 'CrewSwap API',
      version: '1',
      description:
        'The public API of CrewSwap, behind its gateway. Generated from the route catalogue in proto/src/api.ts and the proto schemas; do not edit by hand (npm run openapi). Mutating requests must carry the app\'s Origin header.',
    },
    tags: [...new Set(routes.map(tagOf))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
      securitySchemes: {
        pilotSession: { type: 'apiKey', in: 'cookie', name: options.cookies.pilot, description: 'Set by POST /api/auth/login' },
        adminSession: { type: 'apiKey', in: 'cookie', name: options.cookies.admin, description: 'Set by POST /api/admin/login' },
      },
    },
  };
}

/**
 * A signed-in caller's change may carry an Idempotency-Key (the kit's `http/idempotency.ts`): the
 * pilot app sends one with every change it may have to send again.
 */
function takesIdempotencyKey(route: ApiRoute): boolean {
  return route.method !== 'GET' && route.auth !== 'none' && !route.upload;
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the change safe to send again: the first answer to a key is kept 24 hours per caller, and the same key with the same method, path and body gets that answer back (with `Idempotent-Replayed: true`) and changes nothing. The same key for a different request is 422; while the first request with the key is still running, 409 \'A request with this Idempotency-Key is still being processed.\' (try again after Retry-After).',
  schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
};

/** Every zod schema proto exports, by the name it is exported as (the first name where one schema has two). */
function schemaNames(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  for (const [name, value] of Object.entries(proto).sort(([a], [b]) => a.localeCompare(b))) {
    if (value instanceof z.ZodType && !names.has(value)) names.set(value, name);
  }
  return names;
}

/**
 * JSON Schemas of the routes' schemas, as requests (`input`) or answers (`output`) read them.
 * Roots are keyed `routeIndex:slot`; components are the named schemas the roots reach.
 */
function generate(
  io: 'input' | 'output',
  names: Map<z.ZodType, string>,
  routes: readonly ApiRoute[],
  slots: (route: ApiRoute) => (z.ZodType | undefined)[],
  takenByOutput: (name: string) => boolean,
): { roots: Map<string, JsonSchema>; components: Record<string, JsonSchema> } {
  const componentName = (name: string) => (takenByOutput(name) ? `${name}Input` : name);
  const registry = z.registry<{ id: string }>();
  for (const [schema, name] of names) registry.add(schema, { id: name });
  const rootIds = new Map<string, string>();
  routes.forEach((route, index) =>
    slots(route).forEach((schema, slot) => {
      if (!schema) return;
      let id = names.get(schema);
      if (!id) {
        id = `~${index}:${slot}`;
        registry.add(schema, { id });
      }
      rootIds.set(`${index}:${slot}`, id);
    }),
  );
  const generated = z.toJSONSchema(registry, { io, unrepresentable: 'any', uri: (id) => `${REF}${componentName(id)}` }).schemas as Record<string, JsonSchema>;

  const components: Record<string, JsonSchema> = {};
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(REF)) {
      const component = ref.slice(REF.length);
      const id = io === 'input' && component.endsWith('Input') && takenByOutput(component.slice(0, -5)) ? component.slice(0, -5) : component;
      if (!components[component]) {
        components[component] = clean(generated[id]!);
        visit(components[component]);
      }
    }
    Object.values(value).forEach(visit);
  };
  const roots = new Map<string, JsonSchema>();
  for (const [key, id] of rootIds) {
    // A named schema is referred to; an unnamed one (z.array(Trip)) is written in place.
    const root = id.startsWith('~') ? clean(generated[id]!) : { $ref: `${REF}${componentName(id)}` };
    visit(root);
    roots.set(key, root);
  }
  return { roots, components };
}

/**
 * The `...Input` components that read exactly like their answer counterpart (most do): the
 * counterpart serves both. Repeated until nothing changes, since one match can make another.
 */
function sameAsOutput(input: Record<string, JsonSchema>, output: Record<string, JsonSchema>): Map<string, string> {
  const same = new Map<string, string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, schema] of Object.entries(input)) {
      const base = name.slice(0, -'Input'.length);
      if (!name.endsWith('Input') || same.has(name) || !output[base]) continue;
      if (JSON.stringify(rewriteRefs(schema, same)) === JSON.stringify(output[base])) {
        same.set(name, base);
        changed = true;
      }
    }
  }
  return same;
}

function rewriteRefs(schema: JsonSchema, renamed: Map<string, string>): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && renamed.has(value.slice(REF.length)) ? `${REF}${renamed.get(value.slice(REF.length))}` : value,
  ) as JsonSchema;
}

/** Path or query parameters from an object schema (a reference is looked up first). */
function parametersOf(schema: JsonSchema | undefined, where: 'path' | 'query', components: Record<string, JsonSchema>): JsonSchema[] {
  if (!schema) return [];
  const resolved = typeof schema.$ref === 'string' ? components[schema.$ref.slice(REF.length)]! : schema;
  const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((resolved.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: property }));
}

/** The `$schema` and `$id` each generated schema carries mean nothing inside a document. */
function clean(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** The area of the API a route belongs to: /api/admin/... by its second segment, others by their first. */
function tagOf(route: ApiRoute): string {
  const [, , first = '', second = ''] = route.path.split('/');
  return first === 'admin' ? `admin/${second}` : first;
}

/** GET /api/trips/{id}/matches -> getTripsIdMatches */
function operationId(route: ApiRoute): string {
  const words = route.path
    .replace(/^\/api\//, '')
    .split(/[/{}\-_.]+/)
    .filter(Boolean);
  return route.method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}
