import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { Base, Fleet, Rank, SessionEndReason, SessionStateReply } from '@crewswap/proto';

export type EndReason = SessionEndReason;

export interface EndedSession {
  id: string;
  pilotId: string;
}

export interface SessionWithPilot {
  id: string;
  pilotId: string;
  loginAt: Date;
  lastActivityAt: Date;
  logoutAt: Date | null;
  rank: Rank;
  fleet: Fleet;
  base: Base;
  firstName: string;
  lastName: string;
  employeeId: string;
}

interface JoinedRow {
  id: string;
  pilot_id: string;
  login_at: Date;
  last_activity_at: Date;
  logout_at: Date | null;
  rank: Rank;
  fleet: Fleet;
  base: Base;
  first_name: string;
  last_name: string;
  employee_id: string;
}

const toSession = (row: JoinedRow): SessionWithPilot =>
  fromRow(row, ['id', 'pilot_id', 'login_at', 'last_activity_at', 'logout_at', 'rank', 'fleet', 'base', 'first_name', 'last_name', 'employee_id']);

const ended = (rows: { id: string; pilot_id: string }[]): EndedSession[] => rows.map((row) => ({ id: row.id, pilotId: row.pilot_id }));

export function createSessionRepository(db: Db) {
  function joined(trx: Executor) {
    return trx('sessions as s')
      .join('pilots as p', 'p.id', 's.pilot_id')
      .select<JoinedRow[]>('s.id', 's.pilot_id', 's.login_at', 's.last_activity_at', 's.logout_at', 'p.rank', 'p.fleet', 'p.base', 'p.first_name', 'p.last_name', 'p.employee_id');
  }

  return {
    async insert(session: { id: string; pilotId: string; at: Date }, trx: Executor = db): Promise<void> {
      await trx('sessions').insert({ id: session.id, pilot_id: session.pilotId, login_at: session.at, last_activity_at: session.at });
    },

    /** Holds the pilot's row until the transaction ends: logins of one pilot then start one at a time. */
    async lockPilot(pilotId: string, trx: Executor): Promise<void> {
      await trx('pilots').where({ id: pilotId }).forUpdate().first('id');
    },

    /** Whether the session was ever issued (open or ended). */
    async exists(id: string, trx: Executor = db): Promise<boolean> {
      return (await trx('sessions').where({ id }).first('id')) !== undefined;
    },

    /** Whether the session is live, ended (and why) or was never issued: what a guard asks over HTTP. */
    async liveness(id: string, trx: Executor = db): Promise<SessionStateReply> {
      const row = (await trx('sessions').where({ id }).first('logout_at', 'end_reason')) as { logout_at: Date | null; end_reason: EndReason | null } | undefined;
      if (!row) return { state: 'never-issued' };
      return row.logout_at === null ? { state: 'live' } : { state: 'ended', ...(row.end_reason ? { reason: row.end_reason } : {}) };
    },

    /** Whether the pilot's session is open, and if it was ended, why. */
    async state(id: string, pilotId: string, trx: Executor = db): Promise<{ open: boolean; endReason?: EndReason }> {
      const row = (await trx('sessions').where({ id, pilot_id: pilotId }).first('logout_at', 'end_reason')) as
        | { logout_at: Date | null; end_reason: EndReason | null }
        | undefined;
      if (!row) return { open: false };
      return row.logout_at === null ? { open: true } : { open: false, ...(row.end_reason ? { endReason: row.end_reason } : {}) };
    },

    /** Ends the open sessions of a pilot (all of them, or all but `except`). */
    async endForPilot(pilotId: string, reason: EndReason, at: Date, trx: Executor, except?: string): Promise<EndedSession[]> {
      const query = trx('sessions').where({ pilot_id: pilotId }).whereNull('logout_at');
      if (except) query.whereNot({ id: except });
      return ended(await query.update({ logout_at: at, end_reason: reason }).returning(['id', 'pilot_id']));
    },

    async end(id: string, reason: EndReason, at: Date, trx: Executor): Promise<EndedSession[]> {
      return ended(
        await trx('sessions').where({ id }).whereNull('logout_at').update({ logout_at: at, end_reason: reason }).returning(['id', 'pilot_id']),
      );
    },

    async endAll(reason: EndReason, at: Date, trx: Executor): Promise<EndedSession[]> {
      return ended(await trx('sessions').whereNull('logout_at').update({ logout_at: at, end_reason: reason }).returning(['id', 'pilot_id']));
    },

    async endIdle(idleSince: Date, at: Date, trx: Executor): Promise<EndedSession[]> {
      return ended(
        await trx('sessions')
          .whereNull('logout_at')
          .where('last_activity_at', '<', idleSince)
          .update({ logout_at: at, end_reason: 'timeout' })
          .returning(['id', 'pilot_id']),
      );
    },

    async touch(id: string, at: Date, trx: Executor = db): Promise<void> {
      await trx('sessions')
        .where({ id })
        .whereNull('logout_at')
        .update({ last_activity_at: trx.raw('GREATEST(last_activity_at, ?)', [at]) });
    },

    async active(activeSince: Date, trx: Executor = db): Promise<SessionWithPilot[]> {
      const rows = await joined(trx).whereNull('s.logout_at').where('s.last_activity_at', '>=', activeSince).orderBy('s.last_activity_at', 'desc');
      return rows.map(toSession);
    },

    async recent(limit: number, trx: Executor = db): Promise<SessionWithPilot[]> {
      const rows = await joined(trx).orderBy('s.login_at', 'desc').limit(limit);
      return rows.map(toSession);
    },
  };
}
export type SessionRepository = ReturnType<typeof createSessionRepository>;
