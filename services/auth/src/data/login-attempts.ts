import { fromRow, type Db, type Executor } from '@crewswap/kit';

export interface LoginAttempt {
  failedCount: number;
  lastResetAt: Date | null;
  lockedUntil: Date | null;
}

interface Row {
  failed_count: number;
  last_reset_at: Date | null;
  locked_until: Date | null;
}

const toAttempt = (row: Row): LoginAttempt => fromRow(row, ['failed_count', 'last_reset_at', 'locked_until']);

export function createLoginAttemptRepository(db: Db) {
  return {
    async get(email: string, trx: Executor = db): Promise<LoginAttempt | undefined> {
      const row: Row | undefined = await trx('login_attempts').where({ email }).first();
      return row ? toAttempt(row) : undefined;
    },

    /** Counts one more consecutive failure and locks the row for the rest of the transaction. */
    async recordFailure(email: string, at: Date, trx: Executor): Promise<LoginAttempt> {
      const [row] = await trx('login_attempts')
        .insert({ email, failed_count: 1, last_failed_at: at })
        .onConflict('email')
        .merge({ failed_count: trx.raw('login_attempts.failed_count + 1'), last_failed_at: at })
        .returning(['failed_count', 'last_reset_at', 'locked_until']);
      return toAttempt(row as Row);
    },

    async markReset(email: string, at: Date, trx: Executor): Promise<void> {
      await trx('login_attempts').where({ email }).update({ failed_count: 0, last_reset_at: at });
    },

    async lock(email: string, until: Date, trx: Executor): Promise<void> {
      await trx('login_attempts').where({ email }).update({ failed_count: 0, locked_until: until });
    },

    async clear(email: string, trx: Executor = db): Promise<void> {
      await trx('login_attempts').where({ email }).delete();
    },
  };
}
export type LoginAttemptRepository = ReturnType<typeof createLoginAttemptRepository>;
