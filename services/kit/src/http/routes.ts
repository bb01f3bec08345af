import type { ApiRoute, Permission } from '@crewswap/proto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preSerializationHookHandler } from 'fastify';
import { z } from 'zod';
import { forbidden, HttpError } from './errors';
import { claimIdempotencyKey, keepIdempotentAnswer, MUTATING_METHODS } from './idempotency';
import type { AdminSession, SessionGuard } from '../sessions/sessions';
import { parse } from './validate';

/**
 * Who may call a route: a function that answers the session or throws (401/403/503), such as
 * `guard.pilot`, `guard.admin` or `adminWith(guard, ...)`, or 'none' for a public route.
 */
export type RouteAuth<S> = ((request: FastifyRequest) => S | Promise<S>) | 'none';

type SessionOf<A> = A extends (request: FastifyRequest) => infer S ? Awaited<S> : undefined;
type Output<T> = T extends z.ZodType ? z.output<T> : undefined;

/**
 * What the kit reads from a route's declaration: its method, path (`{id}` as OpenAPI writes it),
 * the proto schemas of what it takes and answers, and its success statuses. A public route's is
 * its entry in proto's catalogue (`API.login`); the kit's own internal routes declare theirs alike.
 */
export type RouteDeclaration = Pick<ApiRoute, 'method' | 'path' | 'params' | 'query' | 'body' | 'response' | 'status' | 'stream'>;

/** How the service answers a declared route; what it takes is the declaration's. */
export interface RouteOptions<A extends RouteAuth<unknown>, H extends boolean | undefined> {
  auth: A;
  /**
   * The handler reads the body itself (its schema depends on what is checked first, such as a
   * setting's key, or the route takes a file): the declaration's `body` is then not checked here.
   */
  handlerReadsBody?: H;
  /** The status of a success (default 200), one the declaration names; 204 sends no body. */
  status?: number;
  /** The title a 400 for this route's input carries, where the spec gives one. */
  invalidTitle?: string;
}

export interface RouteInput<S, P, Q, B> {
  session: S;
  params: Output<P>;
  query: Output<Q>;
  body: Output<B>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A declaration's schema of one part, as its own type (undefined where it declares none). */
type Part<D, K extends 'params' | 'query' | 'body' | 'response'> = D extends { readonly [P in K]: infer T extends z.ZodType } ? T : undefined;

/**
 * What a handler answers: the declared response, ready-made JSON text (a cached list, Find
 * swaps), or what it sent itself through `reply` (an error, a 304).
 */
type Answer<D> = Part<D, 'response'> extends infer R extends z.ZodType ? z.input<R> | string | Buffer | FastifyReply : unknown;

type Handler<D, A, H> = (input: RouteInput<SessionOf<A>, Part<D, 'params'>, Part<D, 'query'>, H extends true ? undefined : Part<D, 'body'>>) => Promise<Answer<D>>;

/** Registers a route by its declaration: `route(API.login, { auth: 'none' }, handler)`. */
export type RegisterRoute = <const D extends RouteDeclaration, A extends RouteAuth<unknown>, H extends boolean | undefined = undefined>(
  declaration: D,
  options: RouteOptions<A, H>,
  handler: Handler<D, A, H>,
) => void;

/**
 * The one way a service serves a route: by its declaration (proto's catalogue entry), which
 * gives the method, the path and the proto schemas of what it takes, so what a service enforces
 * is what the OpenAPI document says. The options say who may call it; the session, params, query
 * and body are checked in that order before the handler runs, so a handler starts from valid
 * input and a known caller. Bad input is kit `parse`'s 400.
 *
 * fastify serializes every success with the declaration's `response` (fast-json-stringify writes
 * only the fields the schema names, so a column the contract does not name never leaves). With
 * response validation on (tests), every answer is also checked with zod, and one that does not
 * match is a logged 500.
 */
export function routes(app: FastifyInstance): RegisterRoute {
  return (declaration, options, handler) => {
    const { method } = declaration;
    const statuses = answerStatuses(declaration, options.status);
    // A stream's schema describes its events, not a body; a route answering only 204 has none.
    const answer = statuses.length > 0 && !declaration.stream ? declaration.response : undefined;
    // A change may be sent again with its Idempotency-Key and is then answered as the first time.
    const mutating = MUTATING_METHODS.includes(method);
    app.route({
      method,
      url: declaration.path.replace(/\{(\w+)\}/g, ':$1'),
      ...(answer ? { schema: { response: Object.fromEntries(statuses.map((status) => [status, serializerSchema(answer)])) } } : {}),
      ...(answer && app.responseValidation ? { preSerialization: checkAnswer(answer, statuses) } : {}),
      ...(mutating ? { onSend: keepIdempotentAnswer } : {}),
      handler: async (request, reply) => {
        const session = options.auth === 'none' ? undefined : await options.auth(request);
        const check = <T extends z.ZodType>(schema: T, input: unknown) => parseTitled(schema, input, options.invalidTitle);
        const params = declaration.params ? check(declaration.params, request.params) : undefined;
        const query = declaration.query ? check(declaration.query, request.query) : undefined;
        const sent = request.body === undefined ? {} : request.body;
        const body = declaration.body && !options.handlerReadsBody ? check(declaration.body, sent) : undefined;
        if (!declaration.body && !options.handlerReadsBody && method !== 'GET') check(NoBody, sent);
        if (mutating && (await claimIdempotencyKey(request, reply, session))) return reply;
        const result = await handler({ session, params, query, body, request, reply } as Parameters<typeof handler>[0]);
        if (options.status === 204) return reply.status(204).send();
        if (options.status) reply.status(options.status);
        return result;
      },
    });
  };
}

/** What a route that takes no body accepts: none, or an empty object (as many clients send). */
const NoBody = z.strictObject({});

/**
 * The success statuses that carry a body: the declaration's (204 has none). The service's own
 * status must be one of them, so the document does not promise what the route never answers.
 */
function answerStatuses(declaration: RouteDeclaration, status: number | undefined): number[] {
  const declared = declaration.status ?? [200];
  if (status !== undefined && !declared.includes(status)) {
    throw new Error(`${declaration.method} ${declaration.path} answers ${status}, which its declaration (${declared.join(', ')}) does not name`);
  }
  return declared.filter((code) => code !== 204);
}

const serializerSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

/**
 * The JSON Schema fastify's serializer (fast-json-stringify) writes an answer with. It reads the
 * schema as the handler's value (zod's input side, as the handler's type does), so a field with a
 * default may be left out. One conversion per schema however many routes share it.
 */
export function serializerSchema(schema: z.ZodType): Record<string, unknown> {
  let json = serializerSchemas.get(schema);
  if (!json) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    json = nullableAsType(rest) as Record<string, unknown>;
    serializerSchemas.set(schema, json);
  }
  return json;
}

/**
 * zod writes a nullable field as `anyOf: [schema, {type: 'null'}]`, which fast-json-stringify
 * settles by running ajv on each value (a list of trips took a third longer than JSON.stringify);
 * `type: [type, 'null']` says the same and is settled by a typeof.
 */
function nullableAsType(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullableAsType);
  if (!value || typeof value !== 'object') return value;
  const node = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, nullableAsType(item)])) as Record<string, unknown>;
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || Object.keys(node).length !== 1) return node;
  const nullAt = options.findIndex((option) => (option as { type?: unknown }).type === 'null' && Object.keys(option as object).length === 1);
  const other = options[1 - nullAt] as Record<string, unknown> | undefined;
  if (nullAt === -1 || !other || typeof other.type !== 'string' || 'anyOf' in other) return node;
  return { ...other, type: [other.type, 'null'], ...(Array.isArray(other.enum) ? { enum: [...other.enum, null] } : {}) };
}

/**
 * Checks each success answer with zod before it is serialized: the serializer trusts its input
 * (a wrong type is coerced, a missing field throws an unhelpful error), so tests turn on this
 * check to name the field that is wrong. A pre-serialized answer (a string or buffer) skips it.
 */
function checkAnswer(schema: z.ZodType, statuses: number[]): preSerializationHookHandler {
  return (request, reply, payload, done) => {
    if (!statuses.includes(reply.statusCode)) return done(null, payload);
    const result = schema.safeParse(payload);
    if (result.success) return done(null, payload);
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`).join('; ');
    done(new ResponseMismatchError(`${request.method} ${request.routeOptions.url} answered ${reply.statusCode} with what its proto schema refuses: ${problems}`));
  };
}

export class ResponseMismatchError extends Error {
  override name = 'ResponseMismatchError';
}

function parseTitled<T extends z.ZodType>(schema: T, input: unknown, title: string | undefined): z.output<T> {
  try {
    return parse(schema, input);
  } catch (error) {
    if (title && error instanceof HttpError) throw new HttpError(error.status, error.message, { ...error.options, title });
    throw error;
  }
}

/** A signed-in admin holding any one of `permissions` (a master admin holds them all). */
export function adminWith(guard: Pick<SessionGuard, 'admin'>, ...permissions: Permission[]): (request: FastifyRequest) => Promise<AdminSession> {
  return async (request) => {
    const admin = await guard.admin(request);
    if (admin.isMasterAdmin || permissions.some((permission) => admin.permissions.includes(permission))) return admin;
    throw forbidden('You do not have permission to do this.');
  };
}

/**
 * The session when the request carries one the guard accepts, else undefined: a route anyone may
 * call (logout). Every refusal of the guard (401, 403, and 503 while sessions cannot be checked)
 * makes the caller anonymous; anything else is still an error.
 */
export function optional<S>(auth: (request: FastifyRequest) => S | Promise<S>): (request: FastifyRequest) => Promise<S | undefined> {
  return async (request) => {
    try {
      return await auth(request);
    } catch (error) {
      if (error instanceof HttpError) return undefined;
      throw error;
    }
  };
}
