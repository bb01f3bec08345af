/**
 * Domain errors carry the HTTP status they mean; the central error handler is the only place that
 * turns them into `{error, title?, fields?}` bodies. `extra` adds documented flags (e.g. a login's
 * `remainingAttempts`) to that body.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: { title?: string; fields?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

type Options = HttpError['options'];
export const badRequest = (message: string, options?: Options) => new HttpError(400, message, options);
export const unauthorized = (message = 'Not logged in', options?: Options) => new HttpError(401, message, options);
export const forbidden = (message = 'Not allowed', options?: Options) => new HttpError(403, message, options);
export const notFound = (message = 'Not found', options?: Options) => new HttpError(404, message, options);
export const conflict = (message: string, options?: Options) => new HttpError(409, message, options);
export const tooMany = (message: string, options?: Options) => new HttpError(429, message, options);
export const unavailable = (message: string, options?: Options) => new HttpError(503, message, options);

/** What a 409 says when a unique index refused a row that a concurrent request wrote first. */
export const ALREADY_EXISTS_MESSAGE = 'This already exists: it was just saved by another request. Please reload and check.';

/**
 * Postgres's unique_violation (23505), optionally on a constraint whose name contains `column`.
 * A read-then-insert can race another request past its read; the unique index decides, and the
 * loser is told 409 (by the route, in its own words, or by the kit's error handler).
 */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && (!column || (typeof constraint === 'string' && constraint.includes(column)));
}

export const MALFORMED_MULTIPART_MESSAGE = 'The request body is not a well-formed multipart form.';

/** busboy (under @fastify/multipart) throws plain Errors for broken framing; their words are the only mark. */
const BUSBOY_FRAMING = /^(Multipart: Boundary not found|Unexpected end of (multipart data|form|file)|Malformed (part header|urlencoded form))$/;

/** A multipart body whose framing is broken: the client's mistake, not ours. */
export function isMalformedMultipart(error: unknown): boolean {
  return error instanceof Error && BUSBOY_FRAMING.test(error.message);
}

export type Dependency = 'database' | 'nats';

/** Postgres's own words for "not now": connection exceptions, shutting down, starting up, too many clients. */
const PG_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;
const NATS_UNAVAILABLE = new Set(['CONNECTION_CLOSED', 'CONNECTION_DRAINING', 'CONNECTION_REFUSED', 'CONNECTION_TIMEOUT', 'DISCONNECT', 'TIMEOUT', '503']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * The dependency an unexpected error says could not be reached, if that is what it says. NATS
 * errors name themselves (only the codes that mean "not reachable" count); any other network
 * failure a request meets is the database's: knex's pool timing out, pg's connection refused or
 * cut, Postgres shutting down or starting up.
 */
export function unreachableDependency(error: unknown): Dependency | undefined {
  // Read by shape, not instanceof: errors from Node's own sockets may come from another realm.
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'NatsError') return NATS_UNAVAILABLE.has(String(code)) ? 'nats' : undefined;
  if (name === 'KnexTimeoutError') return 'database';
  if (typeof code === 'string' && (PG_UNAVAILABLE.test(code) || NETWORK_CODES.has(code))) return 'database';
  // pg's own words when a connection dies; knex puts the statement in front ("ROLLBACK - ...").
  if (typeof message === 'string' && /Connection terminated|not queryable|timeout exceeded when trying to connect/.test(message)) return 'database';
  return undefined;
}
