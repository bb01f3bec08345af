import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Knex } from 'knex';
import type { Db, Migration } from '../data/db';
import { HttpError } from './errors';

/**
 * `Idempotency-Key` on the mutating routes (issue 57): a change the pilot app queued offline is
 * sent again when it cannot tell whether the first try arrived, and must never happen twice. The
 * first answer to a key is kept 24 hours per caller, in the service's own schema; the same key
 * again (same method, path and body) gets that answer back and changes nothing.
 *
 * A second request with a key whose first is still running gets a 409 at once rather than
 * waiting for it: the app sends its queue one change at a time, so a duplicate in flight is a
 * retry after a lost answer, which will ask again shortly; holding it open would tie up a
 * connection and a database session per duplicate for as long as the first one takes.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEEP_HOURS = 24;
export const IDEMPOTENCY_INVALID_MESSAGE = 'The Idempotency-Key header must be 1 to 200 visible ASCII characters.';
export const IDEMPOTENCY_MISMATCH_MESSAGE = 'This Idempotency-Key was already used for a different request. Use a new key for a new change.';
export const IDEMPOTENCY_IN_PROGRESS_MESSAGE = 'A request with this Idempotency-Key is still being processed.';
/** Says that an answer is the kept first answer to its key, not a new one. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** Seconds a 409 for a key still in progress asks the client to wait. */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 2;
/**
 * A first request still marked running after this was lost with its process (no request runs
 * this long: the gateway gives up far sooner): its key is claimed afresh rather than refused for a day.
 */
const ABANDONED_AFTER_MS = 2 * 60_000;

const VISIBLE_ASCII = /^[\x21-\x7e]{1,200}$/;

export const MUTATING_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

export const idempotencyMigrations: Record<string, Migration> = {
  '0003_kit_idempotency_keys': {
    async up(knex: Knex) {
      await knex.schema.createTable('idempotency_keys', (table) => {
        // 'pilot:<id>' or 'admin:<id>': one pilot's keys never meet another's.
        table.string('caller', 100).notNullable();
        table.string('key', 200).notNullable();
        // sha256 of method, path and body: the same key for another request is refused.
        table.string('fingerprint', 64).notNullable();
        // Null while the first request runs.
        table.integer('status');
        table.string('content_type', 200);
        table.text('body');
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.primary(['caller', 'key']);
        table.index(['created_at']);
      });
    },
  },
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the service keeps idempotency keys (set by `startService`); without it keys are ignored. */
    idempotencyDb?: Db;
  }
}

interface Claim {
  db: Db;
  caller: string;
  key: string;
  settled: boolean;
}

const claims = new WeakMap<FastifyRequest, Claim>();

/** The request's key, checked; undefined when it sends none. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !VISIBLE_ASCII.test(value)) throw new HttpError(400, IDEMPOTENCY_INVALID_MESSAGE);
  return value;
}

function callerOf(session: unknown): string | undefined {
  const s = session as { kind?: string; pilotId?: string; adminId?: string } | undefined;
  if (s?.kind === 'pilot' && s.pilotId) return `pilot:${s.pilotId}`;
  if (s?.kind === 'admin' && s.adminId) return `admin:${s.adminId}`;
  return undefined;
}

function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/**
 * Before a mutating route's handler: claims the request's key for its caller, or answers for the
 * handler (the kept first answer, a 422 for a key reused on another request, a 409 while the first
 * still runs). True when it answered. A request without a key, without a signed-in caller, or
 * with a multipart body (the handler reads it: nothing here can compare it) runs as it is.
 */
export async function claimIdempotencyKey(request: FastifyRequest, reply: FastifyReply, session: unknown): Promise<boolean> {
  const key = idempotencyKeyOf(request);
  const db = request.server.idempotencyDb;
  const caller = callerOf(session);
  if (key === undefined || !db || !caller || request.headers['content-type']?.startsWith('multipart/')) return false;
  const fingerprint = fingerprintOf(request);
  for (;;) {
    const inserted = await db.raw('INSERT INTO idempotency_keys (caller, key, fingerprint) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING caller', [caller, key, fingerprint]);
    if ((inserted as { rowCount: number }).rowCount === 1) {
      claims.set(request, { db, caller, key, settled: false });
      return false;
    }
    const row = (await db('idempotency_keys')
      .where({ caller, key })
      .first('fingerprint', 'status', 'content_type', 'body', db.raw(`created_at < now() - interval '${IDEMPOTENCY_KEEP_HOURS} hours' OR (status IS NULL AND created_at < now() - interval '${ABANDONED_AFTER_MS} milliseconds') AS expired`))) as
      | { fingerprint: string; status: number | null; content_type: string | null; body: string | null; expired: boolean }
      | undefined;
    // Gone meanwhile (its first request failed): claim it afresh.
    if (!row) continue;
    // Older than kept (not pruned yet), or abandoned: claim it afresh.
    if (row.expired) {
      await db('idempotency_keys').where({ caller, key, fingerprint: row.fingerprint }).delete();
      continue;
    }
    if (row.fingerprint !== fingerprint) throw new HttpError(422, IDEMPOTENCY_MISMATCH_MESSAGE);
    if (row.status === null) {
      reply.header('retry-after', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
      throw new HttpError(409, IDEMPOTENCY_IN_PROGRESS_MESSAGE);
    }
    reply.status(row.status).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    if (row.content_type) reply.header('content-type', row.content_type);
    await reply.send(row.body ?? undefined);
    return true;
  }
}

/**
 * Keeps the answer to a claimed key before it leaves, so a retry that follows at once finds it.
 * A server error (5xx) changed nothing (its transaction rolled back), so the key is freed to be
 * tried again.
 */
export const keepIdempotentAnswer: onSendHookHandler = async (request, reply, payload) => {
  const claim = claims.get(request);
  if (!claim || claim.settled) return payload;
  claim.settled = true;
  const where = { caller: claim.caller, key: claim.key };
  if (reply.statusCode >= 500) {
    await claim.db('idempotency_keys').where(where).delete();
    return payload;
  }
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  const contentType = reply.getHeader('content-type');
  await claim.db('idempotency_keys')
    .where(where)
    .update({ status: reply.statusCode, body, content_type: typeof contentType === 'string' ? contentType : null });
  return payload;
};
