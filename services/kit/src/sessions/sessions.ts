import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import {
  DIRECT,
  IdParams,
  INTERNAL_SESSION_PATH,
  SessionIssuedReply,
  SessionIssuedRequest,
  sessionIssuedSubject,
  SessionStateReply,
  SUBJECTS,
  type Permission,
  type SessionEndReason,
} from '@crewswap/proto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import jwt from 'jsonwebtoken';
import type { Subscription } from 'nats';
import type { Logger } from 'pino';
import { forbidden, unauthorized, unavailable } from '../http/errors';
import { follow, publishDirect } from '../events';
import type { Bus } from '../events/nats';
import { requestOutboxPending } from '../events/outbox-pending';
import { routes } from '../http/routes';
import { serveRpc } from '../events/rpc';

export const PILOT_COOKIE = 'crewswap_session';
export const ADMIN_COOKIE = 'crewswap_admin';
/** A token's absolute life. Inactivity ends sessions much sooner, through revocation. */
export const SESSION_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
export const SESSION_EXPIRED_MESSAGE = 'Session expired';
/** Auth's words for a pilot who logged in with a temporary password; every service refuses the session with them. */
export const CHANGE_PASSWORD_FIRST = 'You must change your password before continuing.';
export const CHANGE_PASSWORD_TITLE = 'Password Change Required';
export const SESSIONS_UNCHECKABLE_MESSAGE = 'Your session cannot be checked right now. Please try again in a moment.';
/**
 * How long a guard that can reach neither NATS nor the session's owner keeps serving a session it
 * knows with the revocations it already knows (SESSION_OUTAGE_GRACE_SECONDS).
 */
export const DEFAULT_OUTAGE_GRACE_MS = 60_000;
/**
 * While NATS is away, how long the owner's 'live' is trusted before it is asked again: a logout
 * made then reaches every service within this.
 */
export const SESSION_RECHECK_MS = 1000;
/** How long the guard waits for an owner's HTTP answer, and then leaves it alone before asking again. */
const OWNER_HTTP_TIMEOUT_MS = 1000;

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
 * Answers `GET /internal/sessions/{id}` (auth and admin, from their session tables): whether the
 * session is live, ended (and why) or was never issued, for a guard that cannot ask over NATS.
 * Only the cluster reaches it: the gateway forwards nothing but `/api/*`.
 */
export function serveSessionState(app: FastifyInstance, state: (sessionId: string) => Promise<SessionStateReply>): void {
  routes(app)(SESSION_STATE_ROUTE, { auth: 'none' }, async ({ params }) => state(params.id));
}

/** The internal route's declaration: not the public API's, so not in proto's catalogue. */
const SESSION_STATE_ROUTE = { method: 'GET', path: INTERNAL_SESSION_PATH, params: IdParams, response: SessionStateReply } as const;

/** Where the guard asks each owner over HTTP (AUTH_URL, ADMIN_URL). */
export interface SessionOwnerUrls {
  auth: string;
  admin: string;
}

/**
 * Verifies session cookies with the public key, refuses ended sessions and sessions never issued.
 * Every process follows the session events (starts and revocations) with a follower of its own,
 * from as far back as a token can live, so a session ended anywhere is refused here as soon as its
 * event arrives (well inside a second). A signed token naming a session not heard of yet (a
 * login a moment ago) is asked about once, of its owner (auth or admin), and the answer kept:
 * a token signed for a session that was never issued is refused, even with the real key.
 *
 * A process that cannot follow them (NATS away, or back but not yet caught up) asks the owner
 * over HTTP (`owners`: `GET /internal/sessions/{id}`) about every session it serves, at most once
 * every SESSION_RECHECK_MS per session, so a logout made during the outage is refused here within
 * about a second and a session nobody issued is refused 401, as with NATS. The same question is
 * asked over HTTP when the owner does not answer over NATS. Only when the owner cannot be reached
 * either does the guard fall back on what it knows: a session it knows is served, with the
 * revocations it knows, for `outageGraceMs` after it was last known live (the loss of NATS, or
 * the owner's last answer), then refused with 503; a session it does not know is refused with 503.
 * Auth, which owns pilot sessions, checks its own store instead (`storeChecked`). Following
 * resumes only after catching up (catchUp), at start and after every reconnect. See docs/FAILURES.md.
 */
export async function startSessionGuard(options: { publicKey: string; bus: Bus; log: Logger; outageGraceMs?: number; owners?: SessionOwnerUrls }): Promise<SessionGuard> {
  const { bus, log } = options;
  const outageGraceMs = options.outageGraceMs ?? DEFAULT_OUTAGE_GRACE_MS;
  const owners = options.owners;
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
  /** While not following: when each session's owner last said it was live (over HTTP). */
  const liveAt = new Map<string, number>();
  const askingOverHttp = new Map<string, Promise<SessionStateReply | undefined>>();
  /** An owner that did not answer over HTTP is left alone until then (requests do not each wait out its timeout). */
  const ownerAwayUntil = { auth: 0, admin: 0 };
  /** When an owner last answered over HTTP, and when one last failed to (readiness). */
  let ownerAnsweredAt = 0;
  let ownerFailedAt = 0;
  const listeners = new Set<(revocation: SessionRevocation) => void>();
  const lastReported = new Map<string, number>();
  const since = new Date(Date.now() - SESSION_TOKEN_TTL_SECONDS * 1000);
  const stops: (() => Promise<void>)[] = [];
  /** The highest stream sequence read from each revocation stream. */
  const read = new Map<string, () => number>();
  let following = false;
  /** When following stopped because NATS went away (undefined while following, and before the first catch-up). */
  let lostAt: number | undefined;
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
          liveAt.clear();
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

  /**
   * Following; or lost only a short while ago, so the revocations known then are still trusted;
   * or asking the owners over HTTP since, and the last ask was answered.
   */
  const serving = () =>
    following || (lostAt !== undefined && (Date.now() - lostAt < outageGraceMs || (ownerAnsweredAt >= lostAt && ownerAnsweredAt >= ownerFailedAt)));

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

  function rememberNeverIssued(sessionId: string): void {
    if (neverIssued.size >= MAX_CACHED_TOKENS) neverIssued.clear();
    neverIssued.set(sessionId, Date.now());
  }

  /**
   * Asks the session's owner whether it issued the session (once at a time per session), over
   * NATS, or over HTTP when that gets no answer.
   */
  function askOwner(sessionId: string, owner: 'auth' | 'admin'): Promise<boolean> {
    let answer = asking.get(sessionId);
    if (!answer) {
      answer = (async () => {
        let reply;
        try {
          reply = await bus.nc.request(bus.subject(sessionIssuedSubject(owner)), JSON.stringify({ sessionId }), { timeout: 2000 });
        } catch {
          // NATS away, or the owner not on it: its HTTP port may still say.
          const state = await askOwnerOverHttp(sessionId, owner);
          if (!state) throw unavailable(SESSIONS_UNCHECKABLE_MESSAGE);
          return state.state !== 'never-issued';
        }
        const parsed = SessionIssuedReply.safeParse(reply.json());
        if (!parsed.success) throw unavailable(SESSIONS_UNCHECKABLE_MESSAGE);
        if (parsed.data.issued) issued.add(sessionId);
        else rememberNeverIssued(sessionId);
        return parsed.data.issued;
      })().finally(() => asking.delete(sessionId));
      asking.set(sessionId, answer);
    }
    return answer;
  }

  /**
   * The owner's answer over HTTP about a session (once at a time per session), recorded here:
   * live, ended (a revocation), or never issued. Undefined when the owner cannot be reached.
   */
  function askOwnerOverHttp(sessionId: string, owner: 'auth' | 'admin'): Promise<SessionStateReply | undefined> {
    let answer = askingOverHttp.get(sessionId);
    if (!answer) {
      answer = (async () => {
        if (!owners || Date.now() < ownerAwayUntil[owner]) return undefined;
        let state: SessionStateReply;
        try {
          const url = new URL(INTERNAL_SESSION_PATH.replace(':id', encodeURIComponent(sessionId)), owners[owner]);
          const response = await fetch(url, { signal: AbortSignal.timeout(OWNER_HTTP_TIMEOUT_MS) });
          if (!response.ok) throw new Error(`${owner} answered ${response.status}`);
          state = SessionStateReply.parse(await response.json());
        } catch (error) {
          ownerAwayUntil[owner] = Date.now() + OWNER_HTTP_TIMEOUT_MS;
          ownerFailedAt = Date.now();
          log.warn({ err: error, owner }, 'cannot ask the session owner over HTTP either');
          return undefined;
        }
        ownerAnsweredAt = Date.now();
        if (state.state === 'live') {
          issued.add(sessionId);
          neverIssued.delete(sessionId);
          if (!following) {
            if (liveAt.size >= MAX_CACHED_TOKENS) liveAt.clear();
            liveAt.set(sessionId, Date.now());
          }
        } else if (state.state === 'ended') {
          issued.add(sessionId);
          if (!revoked.get(sessionId)?.reason) revoked.set(sessionId, { at: Date.now(), ...(state.reason ? { reason: state.reason } : {}) });
        } else rememberNeverIssued(sessionId);
        return state;
      })().finally(() => askingOverHttp.delete(sessionId));
      askingOverHttp.set(sessionId, answer);
    }
    return answer;
  }

  const refusedRecently = (sessionId: string) => {
    const refusedAt = neverIssued.get(sessionId);
    return refusedAt !== undefined && Date.now() - refusedAt < NEVER_ISSUED_MS;
  };
  const known = (sessionId: string) => issued.has(sessionId) || issuedHere.has(sessionId);

  /** Throws unless the session is live, as far as this process can tell (see startSessionGuard). */
  async function checkIssuedAndLive(sessionId: string, owner: 'auth' | 'admin'): Promise<void> {
    // Sessions are issued with uuids: anything else names none, and is not worth a question.
    const notASession = () => !SessionIssuedRequest.safeParse({ sessionId }).success;
    if (following) {
      if (known(sessionId)) return;
      if (refusedRecently(sessionId) || notASession()) throw unauthorized(SESSION_EXPIRED_MESSAGE);
      if (!(await askOwner(sessionId, owner))) throw unauthorized(SESSION_EXPIRED_MESSAGE);
    } else {
      // Revocations cannot be heard: the owner says, at most once every SESSION_RECHECK_MS.
      if (Date.now() - (liveAt.get(sessionId) ?? 0) < SESSION_RECHECK_MS) return;
      if (refusedRecently(sessionId) || notASession()) throw unauthorized(SESSION_EXPIRED_MESSAGE);
      const answer = await askOwnerOverHttp(sessionId, owner);
      if (!answer) {
        // Nobody can say: what this process knows holds for the grace after it was last known live.
        const lastKnownLive = Math.max(lostAt ?? 0, liveAt.get(sessionId) ?? 0);
        if (known(sessionId) && Date.now() - lastKnownLive < outageGraceMs) return;
        throw unavailable(SESSIONS_UNCHECKABLE_MESSAGE);
      }
      if (answer.state === 'never-issued') throw unauthorized(SESSION_EXPIRED_MESSAGE);
    }
    // Revoked while the question was out, or the owner said it ended.
    if (revoked.has(sessionId)) throw sessionEnded(revoked.get(sessionId)?.reason);
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
    if (!storeChecked) await checkIssuedAndLive(claims.sid, typ === 'pilot' ? 'auth' : 'admin');
    reportActivity(claims.sid);
    return claims;
  }

  function reportActivity(sessionId: string): void {
    const now = Date.now();
    if (now - (lastReported.get(sessionId) ?? 0) < 60_000) return;
    lastReported.set(sessionId, now);
    try {
      publishDirect(bus, DIRECT.sessionActivity, { sessionId, at: new Date(now).toISOString() });
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
