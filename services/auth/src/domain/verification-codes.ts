import type { Clock, Db, Executor } from '@crewswap/kit';
import type { PilotRecord } from '../data/pilots';
import type { VerificationRepository } from '../data/verification';
import type { AuthMail } from './mail';
import { sha256, verificationCode } from './passwords';

const CODE_LIFETIME_MS = 24 * 3600_000;

/** Mailed email-verification codes; only their hash is stored. */
export function createVerificationCodes(deps: { db: Db; verification: VerificationRepository; clock: Clock; mail: AuthMail }) {
  const { db, verification, clock, mail } = deps;

  async function send(trx: Executor, pilot: PilotRecord): Promise<void> {
    const code = verificationCode();
    const now = clock.now();
    await verification.save({ pilotId: pilot.id, codeHash: sha256(code), sentAt: now, expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS) }, trx);
    await mail.verificationCode(trx, pilot, code);
  }

  return {
    send,

    /** Sends a code if the pilot has none that still works (e.g. after an unverified login). */
    async ensure(pilot: PilotRecord): Promise<void> {
      const current = await verification.get(pilot.id);
      if (current && current.expiresAt > clock.now()) return;
      await db.transaction((trx) => send(trx, pilot));
    },
  };
}
export type VerificationCodes = ReturnType<typeof createVerificationCodes>;
