import { conflict, notFound } from '@crewswap/kit';
import { SUBJECTS, type RegisterResponse, type RestorePilotBody } from '@crewswap/proto';
import { isUniqueViolation, toPilot } from '../data/pilots';
import { restorable } from './deleted-profiles';
import { publishProfile, type AuthDeps } from './deps';
import type { VerificationCodes } from './verification-codes';

/**
 * Brings a self-deleted profile back within its cooling-off period: rank, fleet and change locks
 * as they were; only the password is new, and the email must be verified again.
 */
export function createRestorePilot(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'passwords' | 'outbox'> & { codes: VerificationCodes }) {
  return {
    async execute(body: RestorePilotBody): Promise<RegisterResponse> {
      const { pilots, deleted } = deps.repos;
      const record = await restorable(deleted, body.employeeId, deps.clock.today());
      if (!record) {
        throw notFound('No deleted profile was found for this employee ID, or its 30-day restore period has ended.', { title: 'Restore Failed' });
      }
      const passwordHash = await deps.passwords.hash(body.updatedData.password);
      const restoreFailed = () =>
        conflict('Another profile now uses this employee ID or email address. Please contact an administrator.', { title: 'Restore Failed' });
      if ((await pilots.byEmployeeId(record.employeeId)) || (await pilots.byEmail(record.profile.email))) throw restoreFailed();
      try {
        const restored = await deps.db.transaction(async (trx) => {
          const { createdAt, ...profile } = record.profile;
          const created = await pilots.insert({ ...profile, emailVerified: false, passwordHash, createdAt: new Date(createdAt) }, trx);
          await deleted.remove(record.id, trx);
          await deps.codes.send(trx, created);
          await publishProfile(deps.outbox, trx, SUBJECTS.pilotRegistered, created);
          return created;
        });
        return { pilot: toPilot(restored), emailVerificationRequired: true };
      } catch (error) {
        if (isUniqueViolation(error)) throw restoreFailed();
        throw error;
      }
    },
  };
}
