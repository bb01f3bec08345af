import { randomBytes } from 'node:crypto';
import type { Db, Executor } from '@crewswap/kit';

/** 80 random bits, lower-case hex: survives mail systems that lower-case addresses, and cannot be guessed. */
const newToken = () => randomBytes(10).toString('hex');

/** Each pilot's private upload token (roster+<token>@<upload domain>); only the current one is kept. */
export function createUploadAddressRepository(db: Db) {
  return {
    /** The pilot's token, made on first use. */
    async tokenOf(pilotId: string, trx: Executor = db): Promise<string> {
      await trx('upload_addresses').insert({ pilot_id: pilotId, token: newToken() }).onConflict('pilot_id').ignore();
      const row: { token: string } = await trx('upload_addresses').where({ pilot_id: pilotId }).first('token');
      return row.token;
    },

    /** A new token; the old address stops working at once. */
    async rotate(pilotId: string, trx: Executor = db): Promise<string> {
      const token = newToken();
      await trx('upload_addresses').insert({ pilot_id: pilotId, token, created_at: trx.fn.now() }).onConflict('pilot_id').merge(['token', 'created_at']);
      return token;
    },

    async pilotOf(token: string, trx: Executor = db): Promise<string | undefined> {
      const row: { pilot_id: string } | undefined = await trx('upload_addresses').where({ token: token.toLowerCase() }).first('pilot_id');
      return row?.pilot_id;
    },
  };
}
export type UploadAddressRepository = ReturnType<typeof createUploadAddressRepository>;
