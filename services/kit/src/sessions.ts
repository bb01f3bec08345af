import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import {
  SESSION_ACTIVITY,
  SessionIssuedReply,
  SessionIssuedRequest,
  sessionIssuedSubject,
  SUBJECTS,
  type Permission,
  type SessionEndReason,
} from '@crewswap/proto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import jwt from 'jsonwebtoken';
import type { Subscription } from 'nats';
import type { Logger } from 'pino';
import { forbidden, unauthorized, unavailable } from './errors';
import { follow } from './events';
import type { Bus } from './nats';
import { requestOutboxPending } from './outbox-pending';
import { serveRpc } from './rpc';

export const PILOT_COOKIE = 'crewswap_session';
export const ADMIN_COOKIE = 'crewswap_admin';
/** A token's absolute life. Inactivity ends sessions much sooner, through revocation. */
export const SESSION_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
export const SESSION_EXPIRED_MESSAGE = 'Session expired';
/** Auth's words for a pilot who logged in with a temporary password; every service refuses the session with them. */
export const CHANGE_PASSWORD_FIRST = 'You must change your password before continuing.';
export const CHANGE_PASSWORD_TITLE = 'Password Change Required';
export const SESSIONS_UNCHECKABLE_MESSAGE = 'Your session cannot be checked right now. Please try again in a moment.';
/** How long a guard that lost NATS keeps serving with the revocations it already knows (SESSION_OUTAGE_GRACE_SECONDS). */
export const DEFAULT_OUTAGE_GRACE_MS = 60_000;

export interface PilotSession {
  kind: 'pilot';
  sessionId: string;
  pilotId: string;
  /** When the token itself expires (ms since the epoch); a long-lived stream ends then. */
  expiresAt?: number;
}
export interface AdminSession {
  kind: 'admin';
  sessionId: string;
  adminId: string;
  isMasterAdmin: boolean;
  permissions: Permission[];
}

interface TokenClaims {
  sid: string;
  sub: string;
  typ: 'pilot' | 'admin';
  master?: boolean;
  perms?: Permission[];
  /** Logged in with a temporary password: nothing but the change is allowed until auth re-issues the token. */
  pwc?: true;
}

/**
 * Sessions this process issued itself (auth's logins, admin's): its own guard knows them without
 * asking anyone. Every other process learns them from the `*.session.started` events, or asks.
 */
const issuedHere = new Set<string>();
const MAX_ISSUED_HERE = 200_000;
function issueHere(sessionId: string): void {
  if (issuedHere.size >= MAX_ISSUED_HERE) issuedHere.clear();
  issuedHere.add(sessionId);
}

export function signPilotToken(privateKey: string, session: Omit<PilotSession, 'kind'> & { mustChangePassword?: boolean }): string {
  issueHere(session.sessionId);
  const claims: TokenClaims = { sid: session.sessionId, sub: session.pilotId, typ: 'pilot', ...(session.mustChangePassword ? { pwc: true } : {}) };
  return jwt.sign(claims, signingKey(privateKey), { algorithm: 'ES256', expiresIn: SESSION_TOKEN_TTL_SECONDS });
}

export function signAdminToken(privateKey: string, session: Omit<AdminSession, 'kind'>): string {
  issueHere(session.sessionId);
  const claims: TokenClaims = {
    sid: session.sessionId,
    sub: session.adminId,
    typ: 'admin',
    master: session.isMasterAdmin,
    perms: session.permissions,
  };
  return jwt.sign(claims, signingKey(privateKey), { algorithm: 'ES256', expiresIn: SESSION_TOKEN_TTL_SECONDS });
}

/** A process signs with one key for its whole life: its PEM text is parsed once, not per login. */
const signingKeys = new Map<string, KeyObject>();
function signingKey(pem: string): KeyObject {
  let key = signingKeys.get(pem);
  if (!key) signingKeys.set(pem, (key = createPrivateKey(pem)));
  return key;
}

export function sessionCookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', maxAge: SESSION_TOKEN_TTL_SECONDS };
}

export function setSessionCookie(reply: FastifyReply, name: string, token: string, secure: boolean): void {
  reply.setCookie(name, token, sessionCookieOptions(secure));
}

export function clearSessionCookie(reply: FastifyReply, name: string): void {
  reply.clearCookie(name, { path: '/' });
}

export type RevocationReason = SessionEndReason;

/**
 * The 401 for a session that was ended: 'Session expired', with why where known, so the app shows
 * the right banner whichever call hears of it first (a shutdown must not read as inactivity).
 */
export function sessionEnded(reason: RevocationReason | undefined) {
  return unauthorized(SESSION_EXPIRED_MESSAGE, reason ? { extra: { sessionEnded: reason } } : undefined);
}

export interface SessionRevocation {
  kind: 'pilot' | 'admin';
  sessionId: string;
  /** The pilot's id for pilot sessions. */
  pilotId?: string;
  /** Auth's reason for pilot sessions (absent for admin sessions). */
  reason?: RevocationReason;
}

export interface PilotGuardOptions {
  /** The route is the password change itself (or logout): a session that must change its password may use it. */
  allowForcedChange?: boolean;
  /**
   * The caller checks the session in the session store itself (auth, which owns pilot sessions),
   * so it is served even while revocations cannot be followed.
   */
  storeChecked?: boolean;
}

export interface SessionGuard {
  /**
   * The pilot session of a request, or 401 'Session expired' (also for a session never issued);
   * 403 while the pilot must change a temporary password; 503 once this process has been unable
   * to follow revocations for longer than its outage grace.
   */
  pilot(request: FastifyRequest, options?: PilotGuardOptions): Promise<PilotSession>;
  /** The admin session of a request, or 401; with a permission, 403 when the admin lacks it. */
  admin(request: FastifyRequest, permission?: Permission): Promise<AdminSession>;
  /** Marks a session ended in this process at once (the event brings it to every other), with auth's reason for a pilot's. */
  revoke(sessionId: string, reason?: RevocationReason): void;
  isRevoked(sessionId: string): boolean;
  /** Whether revocations are being followed (false while NATS is away and until caught up after). */
  following(): boolean;
  /** Whether sessions are served: following, or not following for less than the outage grace. */
  serving(): boolean;
  /**
   * Calls `listener` with every revocation read from now on, with auth's reason for pilot
   * sessions (realtime ends the session's streams with the matching event). Returns the undo.
   */
  onRevoked(listener: (revocation: SessionRevocation) => void): () => void;
  stop(): Promise<void>;
}

/**
 * After NATS comes back, how long a service that does not answer may still be reconnecting
 * itself (clients retry every 500 ms) before its silence means it is not running.
 */
const RECONNECT_GRACE_MS = 5000;

/**
 * Each stream of revocations, the service whose outbox writes them, the subject of its sessions'
 * starts, and one filter for both (a consumer with several filters needs NATS 2.10).
 */
const REVOCATION_FEEDS = [
  ['AUTH', SUBJECTS.sessionRevoked, 'auth', SUBJECTS.sessionStarted, 'auth.session.>'],
  ['ADMIN', SUBJECTS.adminSessionRevoked, 'admin', SUBJECTS.adminSessionStarted, 'admin.session.>'],
] as const;

/**
 * Answers on `sessionIssuedSubject(service)` whether the service ever issued a session (auth and
 * admin, from their session tables): what a guard asks about a session it has not heard of.
 */
export function serveSessionIssued(options: { bus: Bus; log: Logger; service: 'auth' | 'admin'; issued: (sessionId: string) => Promise<boolean> }): Subscription {
  return serveRpc({
    bus: options.bus,
    log: options.log,
    subject: sessionIssuedSubject(options.service),
    request: SessionIssuedRequest,
    handle: async ({ sessionId }) => SessionIssuedReply.parse({ issued: await options.issued(sessionId) }),
  });
}

/**
 * Verifies session cookies with the public key, refuses ended sessions and sessions never issued.
 * Every process follows the session events (starts and revocations) with a follower of its own,
 * from as far back as a token can live, so a session ended anywhere is refused here as soon as its
 * event arrives (well inside a second). A signed token naming a session not heard of yet (a
 * login a moment ago) is asked about once, of its owner (auth or admin), and the answer kept:
 * a token signed for a session that was never issued is refused, even with the real key.
 *
 * A process that cannot follow them (NATS away, or back but not yet caught up) keeps serving the
 * sessions it knows, with the revocations it already knows, for `outageGraceMs`; after that it
 * refuses sessions with 503 rather than trust them any longer. A session it has not heard of
 * cannot be asked about while NATS is away: within the grace it is served if it was signed during
 * the outage (a login then), else refused with 503. Auth, which owns pilot
 * sessions, checks its own store instead (`storeChecked`). Serving resumes in full only after
 * catching up (catchUp), at start and after every reconnect. See docs/FAILURES.md.
 */
export async function startSessionGuard(options: { publicKey: string; bus: Bus; log: Logger; outageGraceMs?: number }): Promise<SessionGuard> {
  const { bus, log } = options;
  const outageGraceMs = options.outageGraceMs ?? DEFAULT_OUTAGE_GRACE_MS;
  // Parsed once: jsonwebtoken given the PEM text parses it again on every check, which costs
  // more than the ES256 verification itself.
  const publicKey = createPublicKey(options.publicKey);
  /** Ended sessions, with auth's reason for pilot sessions where the event carried one. */
  const revoked = new Map<string, { at: number; reason?: RevocationReason }>();
  /** Sessions heard of (started events, or their owner's answer). */
  const issued = new Set<string>();
  /** Sessions their owner said it never issued, and when: asked again only after NEVER_ISSUED_MS. */
  const neverIssued = new Map<string, number>();
  const asking = new Map<string, Promise<boolean>>();
  const listeners = new Set<(revocation: SessionRevocation) => void>();
  const lastReported = new Map<string, number>();
  const since = new Date(Date.now() - SESSION_TOKEN_TTL_SECONDS * 1000);
  const stops: (() => Promise<void>)[] = [];
  /** The highest stream sequence read from each revocation stream. */
  const read = new Map<string, () => number>();
  let following = false;
  /** When following stopped because NATS went away (undefined while following, and before the first catch-up). */
  let lostAt: number | undefined;
  /** How long a silent network may go unnoticed (pings every 10 s, two missed), before lostAt. */
  const SILENT_LOSS_MS = 30_000;
  let stopped = false;
  /** Bumped by every disconnect, so a catch-up started before it gives up. */
  let epoch = 0;

  for (const [stream, revokedSubject, , startedSubject, sessionEvents] of REVOCATION_FEEDS) {
    const follower = await follow({
      bus,
      log,
      stream,
      filter: sessionEvents,
      subjects: [revokedSubject, startedSubject],
      from: { time: since },
      handle: (event) => {
        if (event.type === startedSubject) {
          issued.add(event.data.sessionId);
          neverIssued.delete(event.data.sessionId);
          return;
        }
        const data = event.data as { sessionId: string; pilotId?: string; reason?: RevocationReason };
        revoked.set(data.sessionId, { at: Date.now(), ...(typeof data.reason === 'string' ? { reason: data.reason } : {}) });
        const revocation: SessionRevocation = {
          kind: stream === 'AUTH' ? 'pilot' : 'admin',
          sessionId: data.sessionId,
          ...(typeof data.pilotId === 'string' ? { pilotId: data.pilotId } : {}),
          ...(typeof data.reason === 'string' ? { reason: data.reason } : {}),
        };
        for (const listener of listeners) {
          try {
            listener(revocation);
          } catch (error) {
            log.warn({ err: error }, 'a session revocation listener failed');
          }
        }
      },
    });
    read.set(stream, () => follower.lastSequence());
    stops.push(() => follower.stop());
  }

  /** The sequence of the newest event on a subject that this guard reads (0 when there is none). */
  async function newest(stream: (typeof REVOCATION_FEEDS)[number][0], subject: string): Promise<number> {
    try {
      const message = await bus.jsm.streams.getMessage(bus.stream(stream), { last_by_subj: bus.subject(subject) });
      // Older than a token can live: the consumer starts after it and will never read it.
      return message.time >= since ? message.seq : 0;
    } catch (error) {
      if ((error as { code?: string }).code === '404') return 0;
      throw error;
    }
  }

  /**
   * How many revocations a service still holds unpublished. Nobody answering means nobody runs
   * it (so nobody can publish anything of its), except just after a reconnect, when it may be
   * reconnecting itself: then its silence counts only after RECONNECT_GRACE_MS.
   */
  async function heldBy(service: string, revokedSubject: string, silentSince: number | undefined): Promise<number> {
    try {
      return await requestOutboxPending(bus, service, [revokedSubject], 2000);
    } catch (error) {
      const nobody = (error as { code?: string }).code === '503';
      if (nobody && (silentSince === undefined || Date.now() - silentSince >= RECONNECT_GRACE_MS)) return 0;
      throw error;
    }
  }

  /**
   * Follows again once auth and admin hold no unpublished revocation (those made while NATS was
   * away are on the streams) and this process has read the streams up to the newest session event.
   */
  async function catchUp(afterReconnect: boolean): Promise<void> {
    const mine = ++epoch;
    following = false;
    const current = () => mine === epoch && !stopped;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
    const reconnectedAt = afterReconnect ? Date.now() : undefined;
    while (current()) {
      try {
        const held = await Promise.all(REVOCATION_FEEDS.map(([, revokedSubject, service]) => heldBy(service, revokedSubject, reconnectedAt)));
        if (held.some((count) => count > 0)) {
          await pause(100);
          continue;
        }
        // Up to the newest start too: a new process then knows the open sessions without asking.
        const targets = await Promise.all(
          REVOCATION_FEEDS.map(async ([stream, revokedSubject, , startedSubject]) => [stream, Math.max(await newest(stream, revokedSubject), await newest(stream, startedSubject))] as const),
        );
        while (current() && !targets.every(([stream, seq]) => (read.get(stream)?.() ?? 0) >= seq)) await pause(20);
        if (current()) {
          following = true;
          lostAt = undefined;
          log.info('following session revocations');
        }
        return;
      } catch {
        await pause(250);
      }
    }
  }

  await catchUp(false);
  void (async () => {
    for await (const status of bus.nc.status()) {
      if (status.type === 'disconnect') {
        epoch += 1;
        if (following) {
          lostAt = Date.now();
          log.warn({ graceMs: outageGraceMs }, 'cannot follow session revocations while NATS is away: serving known sessions for the grace, then refusing with 503');
        }
        following = false;
      } else if (status.type === 'reconnect') {
        void catchUp(true);
      }
    }
  })();

  /** Following, or lost only a short while ago: the revocations known then are still trusted. */
  const serving = () => following || (lostAt !== undefined && Date.now() - lostAt < outageGraceMs);

  // An ES256 check costs about half a millisecond; a pilot's app sends the same token many times.
  const verified = new Map<string, TokenClaims & { exp: number; iat?: number }>();
  const MAX_CACHED_TOKENS = 50_000;
  const NEVER_ISSUED_MS = 10_000;

  function checkSignature(token: string): TokenClaims & { exp: number; iat?: number } {
    const cached = verified.get(token);
    if (cached && cached.exp * 1000 > Date.now()) return cached;
    const claims = jwt.verify(token, publicKey, { algorithms: ['ES256'] }) as TokenClaims & { exp: number; iat?: number };
    if (verified.size >= MAX_CACHED_TOKENS) verified.clear();
    verified.set(token, claims);
    return claims;
  }

  /** Asks the session's owner whether it issued the session (once at a time per session). */
  function askOwner(sessionId: string, owner: 'auth' | 'admin'): Promise<boolean> {
    let answer = asking.get(sessionId);
    if (!answer) {
      answer = (async () => {
        let reply;
        try {
          reply = await bus.nc.request(bus.subject(sessionIssuedSubject(owner)), JSON.stringify({ sessionId }), { timeout: 2000 });
        } catch {
          // NATS away, or the owner not running: nobody can say, so the session is not trusted yet.
          throw unavailable(SESSIONS_UNCHECKABLE_MESSAGE);
        }
        const parsed = SessionIssuedReply.safeParse(reply.json());
        if (!parsed.success) throw unavailable(SESSIONS_UNCHECKABLE_MESSAGE);
        if (parsed.data.issued) issued.add(sessionId);
        else {
          if (neverIssued.size >= MAX_CACHED_TOKENS) neverIssued.clear();
          neverIssued.set(sessionId, Date.now());
        }
        return parsed.data.issued;
      })().finally(() => asking.delete(sessionId));
      asking.set(sessionId, answer);
    }
    return answer;
  }

  /**
   * A session signed while NATS is away (or just before the loss was noticed) cannot have been
   * announced, and its owner cannot be asked: within the grace it is served, as the known ones are.
   * It is not remembered as issued: once NATS is back, its start event (or its owner) decides.
   */
  function signedDuringOutage(claims: { iat?: number }): boolean {
    return !following && lostAt !== undefined && typeof claims.iat === 'number' && claims.iat * 1000 >= lostAt - SILENT_LOSS_MS;
  }

  async function verify(token: string | undefined, typ: TokenClaims['typ'], storeChecked = false): Promise<TokenClaims & { exp?: number }> {
    if (!token) throw unauthorized(SESSION_EXPIRED_MESSAGE);
    let claims: TokenClaims & { exp?: number; iat?: number };
    try {
      claims = checkSignature(token);
    } catch {
      throw unauthorized(SESSION_EXPIRED_MESSAGE);
    }
    if (claims.typ !== typ) throw unauthorized(SESSION_EXPIRED_MESSAGE);
    if (revoked.has(claims.sid)) throw sessionEnded(revoked.get(claims.sid)?.reason);
    if (!storeChecked) {
      if (!serving()) throw unavailable(SESSIONS_UNCHECKABLE_MESSAGE);
      if (!issued.has(claims.sid) && !issuedHere.has(claims.sid) && !signedDuringOutage(claims)) {
        const refusedAt = neverIssued.get(claims.sid);
        if (refusedAt !== undefined && Date.now() - refusedAt < NEVER_ISSUED_MS) throw unauthorized(SESSION_EXPIRED_MESSAGE);
        if (!(await askOwner(claims.sid, typ === 'pilot' ? 'auth' : 'admin'))) throw unauthorized(SESSION_EXPIRED_MESSAGE);
        // Revoked while the question was out.
        if (revoked.has(claims.sid)) throw sessionEnded(revoked.get(claims.sid)?.reason);
      }
    }
    reportActivity(claims.sid);
    return claims;
  }

  function reportActivity(sessionId: string): void {
    const now = Date.now();
    if (now - (lastReported.get(sessionId) ?? 0) < 60_000) return;
    lastReported.set(sessionId, now);
    try {
      bus.nc.publish(bus.subject(SESSION_ACTIVITY), JSON.stringify({ sessionId, at: new Date(now).toISOString() }));
    } catch {
      // Activity is best effort: a missed report only ends an idle session a little early.
    }
  }

  return {
    async pilot(request, options = {}) {
      const claims = await verify(request.cookies[PILOT_COOKIE], 'pilot', options.storeChecked);
      if (claims.pwc && !options.allowForcedChange) {
        throw forbidden(CHANGE_PASSWORD_FIRST, { title: CHANGE_PASSWORD_TITLE, extra: { forcePasswordChange: true } });
      }
      return { kind: 'pilot', sessionId: claims.sid, pilotId: claims.sub, ...(claims.exp ? { expiresAt: claims.exp * 1000 } : {}) };
    },
    async admin(request, permission) {
      const claims = await verify(request.cookies[ADMIN_COOKIE], 'admin');
      const session: AdminSession = {
        kind: 'admin',
        sessionId: claims.sid,
        adminId: claims.sub,
        isMasterAdmin: claims.master === true,
        permissions: claims.perms ?? [],
      };
      if (permission && !session.isMasterAdmin && !session.permissions.includes(permission)) {
        throw forbidden('You do not have permission to do this.');
      }
      return session;
    },
    revoke(sessionId, reason) {
      if (!revoked.get(sessionId)?.reason) revoked.set(sessionId, { at: Date.now(), ...(reason ? { reason } : {}) });
    },
    isRevoked: (sessionId) => revoked.has(sessionId),
    following: () => following,
    serving,
    onRevoked(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      stopped = true;
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
