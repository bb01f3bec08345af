import { SESSION_ACTIVITY, SUBJECTS, type Permission } from '@crewswap/proto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import jwt from 'jsonwebtoken';
import { DeliverPolicy } from 'nats';
import type { Logger } from 'pino';
import { forbidden, unauthorized } from './errors';
import type { Bus } from './nats';

export const PILOT_COOKIE = 'crewswap_session';
export const ADMIN_COOKIE = 'crewswap_admin';
/** A token's absolute life. Inactivity ends sessions much sooner, through revocation. */
export const SESSION_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
export const SESSION_EXPIRED_MESSAGE = 'Session expired';

export interface PilotSession {
  kind: 'pilot';
  sessionId: string;
  pilotId: string;
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
}

export function signPilotToken(privateKey: string, session: Omit<PilotSession, 'kind'>): string {
  const claims: TokenClaims = { sid: session.sessionId, sub: session.pilotId, typ: 'pilot' };
  return jwt.sign(claims, privateKey, { algorithm: 'ES256', expiresIn: SESSION_TOKEN_TTL_SECONDS });
}

export function signAdminToken(privateKey: string, session: Omit<AdminSession, 'kind'>): string {
  const claims: TokenClaims = {
    sid: session.sessionId,
    sub: session.adminId,
    typ: 'admin',
    master: session.isMasterAdmin,
    perms: session.permissions,
  };
  return jwt.sign(claims, privateKey, { algorithm: 'ES256', expiresIn: SESSION_TOKEN_TTL_SECONDS });
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

export interface SessionGuard {
  /** The pilot session of a request, or 401 'Session expired'. */
  pilot(request: FastifyRequest): PilotSession;
  /** The admin session of a request, or 401; with a permission, 403 when the admin lacks it. */
  admin(request: FastifyRequest, permission?: Permission): AdminSession;
  /** Marks a session ended in this process at once (the event brings it to every other). */
  revoke(sessionId: string): void;
  isRevoked(sessionId: string): boolean;
  stop(): Promise<void>;
}

/**
 * Verifies session cookies with the public key and refuses ended sessions. Every process follows
 * the revocation events from the streams, replayed from as far back as a token can live, so a
 * session ended anywhere is refused here as soon as its event arrives (well inside a second).
 */
export async function startSessionGuard(options: { publicKey: string; bus: Bus; log: Logger }): Promise<SessionGuard> {
  const { publicKey, bus, log } = options;
  const revoked = new Map<string, number>();
  const lastReported = new Map<string, number>();
  const since = new Date(Date.now() - SESSION_TOKEN_TTL_SECONDS * 1000).toISOString();
  const stops: (() => Promise<void>)[] = [];

  for (const [stream, subject] of [
    ['AUTH', SUBJECTS.sessionRevoked],
    ['ADMIN', SUBJECTS.adminSessionRevoked],
  ] as const) {
    const consumer = await bus.js.consumers.get(bus.stream(stream), {
      filterSubjects: bus.subject(subject),
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: since,
    });
    const messages = await consumer.consume();
    const done = (async () => {
      for await (const message of messages) {
        try {
          const event = message.json<{ data: { sessionId?: string } }>();
          if (typeof event.data?.sessionId === 'string') revoked.set(event.data.sessionId, Date.now());
        } catch (error) {
          log.warn({ err: error }, 'ignoring an unreadable session revocation');
        }
      }
    })();
    stops.push(async () => {
      await messages.close();
      await done;
    });
  }

  // An ES256 check costs about half a millisecond; a pilot's app sends the same token many times.
  const verified = new Map<string, TokenClaims & { exp: number }>();
  const MAX_CACHED_TOKENS = 50_000;

  function checkSignature(token: string): TokenClaims {
    const cached = verified.get(token);
    if (cached && cached.exp * 1000 > Date.now()) return cached;
    const claims = jwt.verify(token, publicKey, { algorithms: ['ES256'] }) as TokenClaims & { exp: number };
    if (verified.size >= MAX_CACHED_TOKENS) verified.clear();
    verified.set(token, claims);
    return claims;
  }

  function verify(token: string | undefined, typ: TokenClaims['typ']): TokenClaims {
    if (!token) throw unauthorized(SESSION_EXPIRED_MESSAGE);
    let claims: TokenClaims;
    try {
      claims = checkSignature(token);
    } catch {
      throw unauthorized(SESSION_EXPIRED_MESSAGE);
    }
    if (claims.typ !== typ || revoked.has(claims.sid)) throw unauthorized(SESSION_EXPIRED_MESSAGE);
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
    pilot(request) {
      const claims = verify(request.cookies[PILOT_COOKIE], 'pilot');
      return { kind: 'pilot', sessionId: claims.sid, pilotId: claims.sub };
    },
    admin(request, permission) {
      const claims = verify(request.cookies[ADMIN_COOKIE], 'admin');
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
    revoke(sessionId) {
      revoked.set(sessionId, Date.now());
    },
    isRevoked: (sessionId) => revoked.has(sessionId),
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
