import { randomUUID } from 'node:crypto';
import { afterCommit, signPilotToken, type Clock, type Executor, type Outbox, type SessionGuard, type SettingsClient } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { EndedSession, EndReason, SessionRepository } from '../data/sessions';

/** `session_timeout_minutes`, or 30 when unset or not a positive number. */
export async function sessionTimeoutMinutes(settings: Pick<SettingsClient, 'get'>): Promise<number> {
  const value = Number(await settings.get('session_timeout_minutes'));
  return Number.isFinite(value) && value > 0 ? value : 30;
}

/**
 * Pilot sessions as the use cases open and end them: every ending is announced (the revocation
 * event makes every service refuse the session within a second) and refused by this process as
 * soon as the change commits.
 */
export function createPilotSessions(deps: {
  sessions: SessionRepository;
  outbox: Outbox;
  guard: SessionGuard;
  clock: Clock;
  settings: Pick<SettingsClient, 'get'>;
  privateKey: string;
}) {
  const { sessions, outbox, guard, clock } = deps;

  async function revoke(trx: Executor, ended: EndedSession[], reason: EndReason): Promise<void> {
    for (const session of ended) {
      await outbox.write(trx, SUBJECTS.sessionRevoked, { sessionId: session.id, pilotId: session.pilotId, reason });
    }
    afterCommit(trx, () => ended.forEach((session) => guard.revoke(session.id, reason)));
  }

  async function endForPilot(trx: Executor, pilotId: string, reason: EndReason): Promise<void> {
    await revoke(trx, await sessions.endForPilot(pilotId, reason, clock.now(), trx), reason);
  }

  return {
    revoke,
    endForPilot,

    /**
     * One session per pilot: a new login ends the older one ('Logged In Elsewhere'). A pilot who
     * must change a temporary password gets a token that says so, which every service refuses
     * (403) until the change re-issues it.
     */
    async start(trx: Executor, pilotId: string, mustChangePassword: boolean): Promise<string> {
      // Concurrent logins would each end only the sessions they saw and leave several open.
      await sessions.lockPilot(pilotId, trx);
      await endForPilot(trx, pilotId, 'logged_in_elsewhere');
      const sessionId = randomUUID();
      await sessions.insert({ id: sessionId, pilotId, at: clock.now() }, trx);
      // Every service's guard refuses a session it never heard was issued.
      await outbox.write(trx, SUBJECTS.sessionStarted, { sessionId, pilotId });
      return signPilotToken(deps.privateKey, { sessionId, pilotId, mustChangePassword });
    },

    /** A token for an open session, re-issued (after a forced password change, without its flag). */
    reissue(session: { sessionId: string; pilotId: string }): string {
      return signPilotToken(deps.privateKey, { sessionId: session.sessionId, pilotId: session.pilotId });
    },

    async endAll(trx: Executor, reason: EndReason): Promise<number> {
      const ended = await sessions.endAll(reason, clock.now(), trx);
      await revoke(trx, ended, reason);
      return ended.length;
    },

    /** Sessions used since this moment count as active. */
    async activeSince(): Promise<Date> {
      return new Date(clock.now().getTime() - (await sessionTimeoutMinutes(deps.settings)) * 60_000);
    },
  };
}
export type PilotSessions = ReturnType<typeof createPilotSessions>;
