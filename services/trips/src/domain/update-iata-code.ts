import { conflict, isUniqueViolation, notFound } from '@crewswap/kit';
import type { IataCode, UpdateIataCodeBody } from '@crewswap/proto';
import type { z } from 'zod';
import type { AirportRepository } from '../data/airports';

/** Changes an IATA table entry; its code must stay unique. */
export function createUpdateIataCode(deps: { airports: AirportRepository; onChange: () => void }) {
  const { airports } = deps;
  return {
    async execute(input: { id: string; body: z.output<typeof UpdateIataCodeBody> }): Promise<IataCode> {
      const { id, body } = input;
      if (body.iataCode) {
        const holder = await airports.findIataByCode(body.iataCode);
        if (holder && holder.id !== id) throw conflict(`IATA code ${body.iataCode} already exists`);
      }
      const updated = await airports.updateIata(id, body).catch((error: unknown) => {
        // Another request took the code after the check above: the unique index decides.
        if (isUniqueViolation(error, 'iata_code')) throw conflict(`IATA code ${body.iataCode} already exists`);
        throw error;
      });
      if (!updated) throw notFound('IATA code not found');
      deps.onChange();
      return updated;
    },
  };
}
