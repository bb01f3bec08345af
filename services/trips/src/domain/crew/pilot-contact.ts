import { notFound } from '@crewswap/kit';
import { PILOT_CONTACT_NOT_FOUND, type PilotContact } from '@crewswap/proto';
import type { CrewRepository } from '../../data/crew';
import type { PilotRepository } from '../../data/pilots';
import { requireMasterRoster } from './access';

/**
 * The pilot contact view opened from a Master Calendar bar (pilot-app section 2: name, rank,
 * fleet, email, phone). The calendars' visibility rules hold: only a caller with Master Roster on
 * asks, and only about a pilot the calendars show; anyone else is as good as missing (404).
 */
export function createGetPilotContact(deps: { pilots: PilotRepository; crew: CrewRepository }) {
  return {
    async execute(input: { pilotId: string; contactId: string }): Promise<PilotContact> {
      await requireMasterRoster(deps.pilots, input.pilotId);
      const contact = await deps.crew.visibleContact(input.contactId);
      if (!contact) throw notFound(PILOT_CONTACT_NOT_FOUND);
      return contact;
    },
  };
}
