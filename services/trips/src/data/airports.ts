import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { ExcludedAirport, IataCode } from '@crewswap/proto';

interface IataRow {
  id: string;
  iata_code: string;
  icao_code: string | null;
  continent: string | null;
  iso_country: string | null;
  municipality: string | null;
}

const toIata = (row: IataRow): IataCode => fromRow(row, ['id', 'iata_code', 'icao_code', 'continent', 'iso_country', 'municipality']);

export interface IataFields {
  iataCode: string;
  icaoCode?: string | null;
  continent?: string | null;
  isoCountry?: string | null;
  municipality?: string | null;
}

function toIataRow(fields: Partial<IataFields>): Partial<IataRow> {
  const row: Partial<IataRow> = {};
  if (fields.iataCode !== undefined) row.iata_code = fields.iataCode;
  if (fields.icaoCode !== undefined) row.icao_code = fields.icaoCode || null;
  if (fields.continent !== undefined) row.continent = fields.continent || null;
  if (fields.isoCountry !== undefined) row.iso_country = fields.isoCountry || null;
  if (fields.municipality !== undefined) row.municipality = fields.municipality || null;
  return row;
}

export function createAirportRepository(db: Db) {
  return {
    async listIata(trx: Executor = db): Promise<IataCode[]> {
      const rows: IataRow[] = await trx('iata_codes').orderBy('iata_code');
      return rows.map(toIata);
    },

    /** Every code, sorted, and nothing else (the public list and the in-memory copy). */
    async listCodes(trx: Executor = db): Promise<string[]> {
      const rows: { iata_code: string }[] = await trx('iata_codes').orderBy('iata_code').select('iata_code');
      return rows.map((row) => row.iata_code);
    },

    /** The codes among `codes` that are in the IATA table. */
    async knownCodes(codes: string[], trx: Executor = db): Promise<Set<string>> {
      if (codes.length === 0) return new Set();
      const rows: { iata_code: string }[] = await trx('iata_codes').whereIn('iata_code', codes).select('iata_code');
      return new Set(rows.map((row) => row.iata_code));
    },

    async findIataByCode(code: string, trx: Executor = db): Promise<IataCode | undefined> {
      const row: IataRow | undefined = await trx('iata_codes').where({ iata_code: code }).first();
      return row && toIata(row);
    },

    async findIata(id: string, trx: Executor = db): Promise<IataCode | undefined> {
      const row: IataRow | undefined = await trx('iata_codes').where({ id }).first();
      return row && toIata(row);
    },

    /** Answers undefined when the code exists already. */
    async insertIata(fields: IataFields, trx: Executor = db): Promise<IataCode | undefined> {
      const rows = (await trx('iata_codes').insert(toIataRow(fields)).onConflict('iata_code').ignore().returning('*')) as IataRow[];
      return rows[0] && toIata(rows[0]);
    },

    async updateIata(id: string, fields: Partial<IataFields>, trx: Executor = db): Promise<IataCode | undefined> {
      const row = toIataRow(fields);
      if (Object.keys(row).length === 0) return this.findIata(id, trx);
      const rows = (await trx('iata_codes').where({ id }).update(row).returning('*')) as IataRow[];
      return rows[0] && toIata(rows[0]);
    },

    async deleteIata(id: string, trx: Executor = db): Promise<boolean> {
      return (await trx('iata_codes').where({ id }).delete()) > 0;
    },

    async listExcluded(trx: Executor = db): Promise<ExcludedAirport[]> {
      const rows: { id: string; iata_code: string }[] = await trx('excluded_airports').orderBy('iata_code');
      return rows.map((row) => ({ id: row.id, iataCode: row.iata_code }));
    },

    async findExcluded(id: string, trx: Executor = db): Promise<ExcludedAirport | undefined> {
      const row: { id: string; iata_code: string } | undefined = await trx('excluded_airports').where({ id }).first();
      return row && { id: row.id, iataCode: row.iata_code };
    },

    async insertExcluded(iataCode: string, trx: Executor = db): Promise<ExcludedAirport | undefined> {
      const rows = (await trx('excluded_airports').insert({ iata_code: iataCode }).onConflict('iata_code').ignore().returning('*')) as {
        id: string;
        iata_code: string;
      }[];
      return rows[0] && { id: rows[0].id, iataCode: rows[0].iata_code };
    },

    async deleteExcluded(id: string, trx: Executor = db): Promise<boolean> {
      return (await trx('excluded_airports').where({ id }).delete()) > 0;
    },
  };
}
export type AirportRepository = ReturnType<typeof createAirportRepository>;
