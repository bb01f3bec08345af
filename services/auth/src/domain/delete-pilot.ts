import { notFound } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import { toPilot } from '../data/pilots';
import type { AuthDeps } from './deps';
import type { PilotSessions } from './pilot-sessions';

/**
 * Deletes a pilot: sessions end, trips go (trips consumes auth.pilot.deleted). A pilot's own
 * deletion keeps the registration details for the 30-day cooling-off period; an admin's
 * deletion is final ('This action cannot be undone').
 */
export function createDeletePilot(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'outbox'> & { sessions: PilotSessions }) {
  const { repos, clock } = deps;
  return {
    async execute(input: { pilotId: string; coolingOff: boolean }): Promise<void> {
      await deps.db.transaction(async (trx) => {
        const pilot = await repos.pilots.byId(input.pilotId, trx, { forUpdate: true });
        if (!pilot) throw notFound('Pilot not found.');
        await deps.sessions.endForPilot(trx, pilot.id, 'deleted');
        if (input.coolingOff) await repos.deleted.insert(toPilot(pilot), clock.now(), clock.today(), trx);
        await repos.pilots.remove(pilot.id, trx);
        await deps.outbox.write(trx, SUBJECTS.pilotDeleted, { pilotId: pilot.id, employeeId: pilot.employeeId }, pilot.version + 1);
      });
    },
  };
}
