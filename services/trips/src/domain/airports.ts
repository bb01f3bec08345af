import { badRequest, conflict, notFound } from '@crewswap/kit';
import { ALWAYS_EXCLUDED_AIRPORTS, type CreateIataCodeBody, type ExcludedAirport, type IataCode, type UpdateIataCodeBody } from '@crewswap/proto';
import type { z } from 'zod';
import type { AirportRepository } from '../data/airports';

type CreateInput = z.output<typeof CreateIataCodeBody>;
type UpdateInput = z.output<typeof UpdateIataCodeBody>;

/** The IATA table (route validation) and the excluded airports (dropped from imported routes). */
/** `onChange` runs after the IATA table changes (the in-memory copy of the codes is dropped). */
export function createAirportService(airports: AirportRepository, onChange: () => void = () => undefined) {
  return {
    listIata: () => airports.listIata(),

    async createIata(body: CreateInput): Promise<IataCode> {
      const created = await airports.insertIata(body);
      if (!created) throw conflict(`IATA code ${body.iataCode} already exists`);
      onChange();
      return created;
    },

    async updateIata(id: string, body: UpdateInput): Promise<IataCode> {
      if (body.iataCode) {
        const holder = await airports.findIataByCode(body.iataCode);
        if (holder && holder.id !== id) throw conflict(`IATA code ${body.iataCode} already exists`);
      }
      const updated = await airports.updateIata(id, body);
      if (!updated) throw notFound('IATA code not found');
      onChange();
      return updated;
    },

    async deleteIata(id: string): Promise<void> {
      if (!(await airports.deleteIata(id))) throw notFound('IATA code not found');
      onChange();
    },

    listExcluded: () => airports.listExcluded(),

    async addExcluded(iataCode: string): Promise<ExcludedAirport> {
      const created = await airports.insertExcluded(iataCode);
      if (!created) throw conflict(`${iataCode} is already an excluded airport`);
      return created;
    },

    async removeExcluded(id: string): Promise<void> {
      const airport = await airports.findExcluded(id);
      if (!airport) throw notFound('Excluded airport not found');
      if ((ALWAYS_EXCLUDED_AIRPORTS as readonly string[]).includes(airport.iataCode)) {
        throw badRequest(`${airport.iataCode} is a home base and is always excluded`, { title: 'Invalid IATA Code' });
      }
      await airports.deleteExcluded(id);
    },
  };
}
export type AirportService = ReturnType<typeof createAirportService>;
