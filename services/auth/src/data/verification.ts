import type { Db, Executor } from '@crewswap/kit';

export function createVerificationRepository(db: Db) {
  return {
    async save(code: { pilotId: string; codeHash: string; sentAt: Date; expiresAt: Date }, trx: Executor = db): Promise<void> {
      await trx('verification_codes')
        .insert({ pilot_id: code.pilotId, code_hash: code.codeHash, sent_at: code.sentAt, expires_at: code.expiresAt })
        .onConflict('pilot_id')
        .merge();
    },

    async get(pilotId: string, trx: Executor = db): Promise<{ codeHash: string; sentAt: Date; expiresAt: Date } | undefined> {
      const row = await trx('verification_codes').where({ pilot_id: pilotId }).first();
      return row ? { codeHash: row.code_hash, sentAt: row.sent_at, expiresAt: row.expires_at } : undefined;
    },

    async remove(pilotId: string, trx: Executor = db): Promise<void> {
      await trx('verification_codes').where({ pilot_id: pilotId }).delete();
    },

    async recordFailure(email: string, at: Date, trx: Executor = db): Promise<void> {
      await trx('verification_failures').insert({ email, at });
    },

    async failuresSince(email: string, since: Date, trx: Executor = db): Promise<number> {
      const row = await trx('verification_failures').where({ email }).where('at', '>', since).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
  };
}
export type VerificationRepository = ReturnType<typeof createVerificationRepository>;
