import type { Executor } from '@crewswap/kit';
import type { AirportRepository } from '../data/airports';

/**
 * The IATA codes, held in memory so that checking a route costs no query (the table has about
 * 10,000 codes and changes rarely). A code missing here is looked up in the table before it is
 * refused, so a code another replica just added is accepted; the copy is reloaded every
 * `ttlMs` and whenever this replica changes the table.
 */
export function createKnownAirports(airports: AirportRepository, ttlMs = 60_000) {
  let cache: { codes: Set<string>; at: number } | undefined;

  async function load(): Promise<Set<string>> {
    if (!cache || Date.now() - cache.at > ttlMs) {
      cache = { codes: new Set(await airports.listCodes()), at: Date.now() };
    }
    return cache.codes;
  }

  return {
    /** The codes among `codes` that are in the IATA table. */
    async known(codes: string[], trx?: Executor): Promise<Set<string>> {
      const cached = await load();
      const missing = codes.filter((code) => !cached.has(code));
      const found = missing.length > 0 ? await airports.knownCodes(missing, trx) : new Set<string>();
      for (const code of found) cached.add(code);
      return new Set(codes.filter((code) => cached.has(code) || found.has(code)));
    },
    invalidate(): void {
      cache = undefined;
    },
  };
}
export type KnownAirports = ReturnType<typeof createKnownAirports>;
