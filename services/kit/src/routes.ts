import type { Permission } from '@crewswap/proto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { forbidden, HttpError } from './errors';
import type { AdminSession, SessionGuard } from './sessions';
import { parse } from './validate';

/**
 * Who may call a route: a function that answers the session or throws (401/403/503), such as
 * `guard.pilot`, `guard.admin` or `adminWith(guard, ...)`, or 'none' for a public route.
 */
export type RouteAuth<S> = ((request: FastifyRequest) => S | Promise<S>) | 'none';

type SessionOf<A> = A extends (request: FastifyRequest) => infer S ? Awaited<S> : undefined;
type Output<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteOptions<A extends RouteAuth<unknown>, P, Q, B, R> {
  auth: A;
  /** Path parameters, e.g. proto's IdParams: a malformed id is a 400 before the handler runs. */
  params?: P;
  query?: Q;
  /** The body's schema; a request without a body is checked as `{}` (a JSON `null` is not an object, and refused). */
  body?: B;
  /** The reply's schema from proto, for readers and types: the handler must return it. */
  response?: R;
  /** The status of a success (default 200); 204 sends no body. */
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

type Handler<A, P, Q, B, R> = (input: RouteInput<SessionOf<A>, P, Q, B>) => Promise<R extends z.ZodType ? z.input<R> : unknown>;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Register = <A extends RouteAuth<unknown>, P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined, R extends z.ZodType | undefined = undefined>(
  url: string,
  options: RouteOptions<A, P, Q, B, R>,
  handler: Handler<A, P, Q, B, R>,
) => void;

export interface Routes {
  get: Register;
  post: Register;
  put: Register;
  patch: Register;
  delete: Register;
}

/**
 * The one way a service declares a route: who may call it and the proto schemas of what it takes
 * are options, checked in that order (session, params, query, body) before the handler runs, so
 * a handler starts from valid input and a known caller. Bad input is kit `parse`'s 400.
 */
export function routes(app: FastifyInstance): Routes {
  const register =
    (method: Method): Register =>
    (url, options, handler) => {
      app.route({
        method,
        url,
        handler: async (request, reply) => {
          const session = options.auth === 'none' ? undefined : await options.auth(request);
          const check = <T extends z.ZodType>(schema: T, input: unknown) => parseTitled(schema, input, options.invalidTitle);
          const params = options.params ? check(options.params, request.params) : undefined;
          const query = options.query ? check(options.query, request.query) : undefined;
          const body = options.body ? check(options.body, request.body === undefined ? {} : request.body) : undefined;
          const result = await handler({ session, params, query, body, request, reply } as Parameters<typeof handler>[0]);
          if (options.status === 204) return reply.status(204).send();
          if (options.status) reply.status(options.status);
          return result;
        },
      });
    };
  return { get: register('GET'), post: register('POST'), put: register('PUT'), patch: register('PATCH'), delete: register('DELETE') };
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
