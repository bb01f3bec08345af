import { randomUUID } from 'node:crypto';
import { signPilotToken, type Executor } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { EndedSession, EndReason } from '../data/sessions';
import { afterCommit, settingNumber, type AuthContext } from './context';

/**
 * Announces ended sessions: the revocation event makes every service refuse them within a second,
 * and this process refuses them as soon as the change commits.
 */
export async function revokeSessions(ctx: AuthContext, trx: Executor, ended: EndedSession[], reason: EndReason): Promise<void> {
  for (const session of ended) {
    await ctx.outbox.write(trx, SUBJECTS.sessionRevoked, { sessionId: session.id, pilotId: session.pilotId, reason });
  }
  afterCommit(trx, () => ended.forEach((session) => ctx.guard.revoke(session.id)));
}

export async function endPilotSessions(ctx: AuthContext, trx: Executor, pilotId: string, reason: EndReason): Promise<void> {
  const ended = await ctx.repos.sessions.endForPilot(pilotId, reason, ctx.clock.now(), trx);
  await revokeSessions(ctx, trx, ended, reason);
}

/**
 * One session per pilot: a new login ends the older one ('Logged In Elsewhere'). A pilot who must
 * change a temporary password gets a token that says so, which every service refuses (403) until
 * the change re-issues it.
 */
export async function startSession(ctx: AuthContext, trx: Executor, pilotId: string, mustChangePassword: boolean): Promise<string> {
  await endPilotSessions(ctx, trx, pilotId, 'logged_in_elsewhere');
  const sessionId = randomUUID();
  await ctx.repos.sessions.insert({ id: sessionId, pilotId, at: ctx.clock.now() }, trx);
  return signPilotToken(ctx.privateKey, { sessionId, pilotId, mustChangePassword });
}

export async function endSession(ctx: AuthContext, sessionId: string, reason: EndReason): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const ended = await ctx.repos.sessions.end(sessionId, reason, ctx.clock.now(), trx);
    await revokeSessions(ctx, trx, ended, reason);
  });
}

export async function endAllSessions(ctx: AuthContext, trx: Executor, reason: EndReason): Promise<number> {
  const ended = await ctx.repos.sessions.endAll(reason, ctx.clock.now(), trx);
  await revokeSessions(ctx, trx, ended, reason);
  return ended.length;
}

/** Ends sessions idle longer than `session_timeout_minutes`. Safe on every replica at once. */
export async function sweepIdleSessions(ctx: AuthContext): Promise<number> {
  const minutes = await settingNumber(ctx, 'session_timeout_minutes', 30);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (trx) => {
    const ended = await ctx.repos.sessions.endIdle(new Date(now.getTime() - minutes * 60_000), now, trx);
    await revokeSessions(ctx, trx, ended, 'timeout');
    return ended.length;
  });
}

export async function activeSince(ctx: AuthContext): Promise<Date> {
  const minutes = await settingNumber(ctx, 'session_timeout_minutes', 30);
  return new Date(ctx.clock.now().getTime() - minutes * 60_000);
}
