import { requestRpc, unavailable, type Bus, type Clock, type Logger } from '@crewswap/kit';
import {
  daysBetween,
  londonToday,
  RPC,
  TripCountsReply,
  type ActiveSessions,
  type AdminPilotList,
  type AdminPilotsQuery,
  type DeletedPilotList,
  type RecentRegistrations,
  type SessionHistory,
} from '@crewswap/proto';
import { toPilot } from '../data/pilots';
import { COOLING_OFF_DAYS } from './deleted-profiles';
import type { Repositories } from './deps';
import type { PilotSessions } from './pilot-sessions';

const TRIP_COUNTS_TIMEOUT_MS = 1500;

/** The admin console's pilot pages: reads, shaped for the console. */
export function createAdminReads(deps: { repos: Repositories; bus: Bus; log: Logger; clock: Clock; sessions: PilotSessions }) {
  const { repos, clock } = deps;
  return {
    /**
     * The pilots list with trip counts from trips. If trips does not answer, counts are null and
     * the list says so; only the trips filter, which needs them, is refused (503).
     */
    async pilots(query: AdminPilotsQuery): Promise<AdminPilotList> {
      const pilots = await repos.pilots.list({
        fleet: query.fleet,
        rank: query.rank,
        testData: query.data === undefined ? undefined : query.data === 'test',
        usualReq: query.masterRoster === undefined ? undefined : query.masterRoster === 'on',
        search: query.search || undefined,
      });
      let counts: Record<string, number> | undefined;
      if (pilots.length > 0) {
        try {
          const reply = await requestRpc(deps.bus, RPC.tripCounts, { pilotIds: pilots.map((p) => p.id) }, TripCountsReply, TRIP_COUNTS_TIMEOUT_MS);
          counts = reply.counts;
        } catch (error) {
          deps.log.warn({ err: error }, 'trip counts unavailable');
          if (query.trips) {
            throw unavailable('Trip counts are unavailable because the trips service is not answering. Please try again shortly, or clear the trips filter.');
          }
        }
      } else {
        counts = {};
      }
      const listed = pilots
        .map((pilot) => ({ ...toPilot(pilot), tripCount: counts ? (counts[pilot.id] ?? 0) : null }))
        .filter((pilot) => !query.trips || (query.trips === 'zero' ? pilot.tripCount === 0 : (pilot.tripCount ?? 0) > 0));
      return { pilots: listed, total: await repos.pilots.count(), tripCountsAvailable: counts !== undefined };
    },

    async activeSessions(): Promise<ActiveSessions> {
      const sessions = await repos.sessions.active(await deps.sessions.activeSince());
      return {
        activeCount: sessions.length,
        uniquePilots: new Set(sessions.map((session) => session.pilotId)).size,
        activePilots: sessions.map((session) => ({
          id: session.pilotId,
          rank: session.rank,
          firstName: session.firstName,
          lastName: session.lastName,
          employeeId: session.employeeId,
          fleet: session.fleet,
          loginTime: session.loginAt.toISOString(),
          lastActivity: session.lastActivityAt.toISOString(),
        })),
      };
    },

    async sessionHistory(): Promise<SessionHistory> {
      const since = await deps.sessions.activeSince();
      const now = clock.now().getTime();
      const sessions = await repos.sessions.recent(20);
      return {
        recentLogins: sessions.map((session) => ({
          pilotRank: session.rank,
          pilotName: `${session.firstName} ${session.lastName}`,
          employeeId: session.employeeId,
          loginTime: session.loginAt.toISOString(),
          logoutTime: session.logoutAt?.toISOString() ?? null,
          duration: Math.max(0, Math.floor(((session.logoutAt?.getTime() ?? now) - session.loginAt.getTime()) / 60_000)),
          isActive: session.logoutAt === null && session.lastActivityAt >= since,
        })),
      };
    },

    async recentRegistrations(): Promise<RecentRegistrations> {
      const pilots = await repos.pilots.recent(50);
      return {
        recentRegistrations: pilots.map((pilot) => ({
          pilotName: `${pilot.firstName} ${pilot.lastName}`,
          pilotRank: pilot.rank,
          fleet: pilot.fleet,
          employeeId: pilot.employeeId,
          masterRosterEnabled: pilot.usualReq,
          registrationDate: londonToday(new Date(pilot.createdAt)),
        })),
      };
    },

    async deletedPilots(): Promise<DeletedPilotList> {
      const today = clock.today();
      const records = await repos.deleted.list();
      return {
        deletedPilots: records.map((record) => {
          const daysSinceDeletion = Math.max(0, daysBetween(record.deletedOn, today));
          return {
            id: record.id,
            rank: record.rank,
            firstName: record.firstName,
            lastName: record.lastName,
            fleet: record.fleet,
            employeeId: record.employeeId,
            deletionDate: record.deletedOn,
            daysSinceDeletion,
            canRemove: daysSinceDeletion >= COOLING_OFF_DAYS,
          };
        }),
      };
    },
  };
}
export type AdminReads = ReturnType<typeof createAdminReads>;
