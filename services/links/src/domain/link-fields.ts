import { badRequest, notFound } from '@crewswap/kit';
import { ALL_DESTINATIONS, CREW_LINK_MESSAGES as MESSAGES, type CrewLink, type CrewLinkInput } from '@crewswap/proto';
import type { LinkFields, LinkRepository } from '../data/links';
import type { AirportCheck } from '../events/airports';

/**
 * Crew links: every signed-in pilot may add, edit, delete and like any link (pilot-app section 6,
 * 'Everyone can add and update'). Destinations are checked against trips' IATA list: one unknown
 * code can be added from the form (Unknown Airport Code); several cannot.
 */
export async function toFields(airports: AirportCheck, input: CrewLinkInput): Promise<LinkFields> {
  const { destinations } = input;
  if (!destinations.all) {
    const known = await airports.known(destinations.codes);
    const unknown = destinations.codes.filter((code) => !known.has(code));
    if (unknown.length === 1) {
      throw badRequest(MESSAGES.unknownCode(unknown[0]!), {
        title: MESSAGES.unknownCodeTitle,
        fields: { destinations: MESSAGES.unknownCode(unknown[0]!) },
        extra: { unknownCode: unknown[0] },
      });
    }
    if (unknown.length > 1) {
      throw badRequest(MESSAGES.invalidDestination(unknown), {
        title: MESSAGES.invalidDestinationTitle,
        fields: { destinations: MESSAGES.invalidDestination(unknown) },
        extra: { unknownCodes: unknown },
      });
    }
  }
  return {
    title: input.title,
    category: input.category,
    description: input.description,
    discountDetails: input.discountDetails,
    destinations: destinations.text,
    destinationCodes: destinations.all ? [ALL_DESTINATIONS] : destinations.codes,
    website: input.website,
    locationName: input.locationName,
    locationCoordinates: input.locationCoordinates,
    contactInfo: input.contactInfo,
    isActive: input.isActive,
  };
}

/** The link as the pilot sees it, or 404. */
export async function findLink(links: LinkRepository, id: string, pilotId: string): Promise<CrewLink> {
  const link = await links.find(id, pilotId);
  if (!link) throw notFound(MESSAGES.notFound);
  return link;
}
