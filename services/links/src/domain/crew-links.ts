import { badRequest, notFound, type Clock } from '@crewswap/kit';
import {
  ALL_DESTINATIONS,
  CREW_LINK_CATEGORIES,
  CREW_LINK_CATEGORY_LABELS,
  CREW_LINK_LOOKUP_MIN,
  CREW_LINK_MESSAGES as MESSAGES,
  type AirportCheck as AirportCheckAnswer,
  type CrewLink,
  type CrewLinkCategory,
  type CrewLinkInput,
  type CrewLinkLike,
  type CrewLinkSuggestion,
  type SimilarCrewLink,
} from '@crewswap/proto';
import type { LinkFields, LinkFilter, LinkRepository } from '../data/links';
import type { AirportCheck } from '../events/airports';

const SIMILAR_LIMIT = 5;
const SUGGESTION_LIMIT = 10;

/**
 * Crew links: every signed-in pilot may add, edit, delete and like any link (pilot-app section 6,
 * 'Everyone can add and update'). Destinations are checked against trips' IATA list.
 */
export function createCrewLinkService(deps: { links: LinkRepository; airports: AirportCheck; clock: Clock }) {
  const { links, airports, clock } = deps;

  /** One unknown code can be added from the form (Unknown Airport Code); several cannot. */
  async function toFields(input: CrewLinkInput): Promise<LinkFields> {
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

  async function found(id: string, pilotId: string): Promise<CrewLink> {
    const link = await links.find(id, pilotId);
    if (!link) throw notFound(MESSAGES.notFound);
    return link;
  }

  return {
    list: (pilotId: string, filter: LinkFilter): Promise<CrewLink[]> => links.list(pilotId, filter),

    get: found,

    async create(pilotId: string, input: CrewLinkInput): Promise<CrewLink> {
      const id = await links.insert(await toFields(input), pilotId, clock.now());
      return found(id, pilotId);
    },

    async update(pilotId: string, id: string, input: CrewLinkInput): Promise<CrewLink> {
      // A missing link is a 404 before any airport check, so a deleted link never says "unknown code".
      await found(id, pilotId);
      if (!(await links.update(id, await toFields(input), pilotId, clock.now()))) throw notFound(MESSAGES.notFound);
      return found(id, pilotId);
    },

    async remove(id: string): Promise<void> {
      if (!(await links.remove(id))) throw notFound(MESSAGES.notFound);
    },

    async like(pilotId: string, id: string): Promise<CrewLinkLike> {
      const state = await links.like(id, pilotId);
      if (!state) throw notFound(MESSAGES.notFound);
      return state;
    },

    async unlike(pilotId: string, id: string): Promise<CrewLinkLike> {
      const state = await links.unlike(id, pilotId);
      if (!state) throw notFound(MESSAGES.notFound);
      return state;
    },

    /** Titles like the one being typed, so a pilot sees an entry may exist already. */
    async similar(title: string): Promise<SimilarCrewLink[]> {
      const text = title.trim();
      if (text.length < CREW_LINK_LOOKUP_MIN) return [];
      return links.similar(text, SIMILAR_LIMIT);
    },

    /** What the search box offers from 2 characters: matching titles, places, airports and categories. */
    async suggestions(q: string): Promise<CrewLinkSuggestion[]> {
      const text = q.trim();
      if (text.length < CREW_LINK_LOOKUP_MIN) return [];
      const lower = text.toLowerCase();
      const { titles, locations } = await links.matchingNames(text, SUGGESTION_LIMIT);
      const codes = (await links.destinationCodes()).filter((code) => code.toLowerCase().startsWith(lower));
      const categories = CREW_LINK_CATEGORIES.filter((category: CrewLinkCategory) =>
        CREW_LINK_CATEGORY_LABELS[category].toLowerCase().includes(lower),
      );
      const all: CrewLinkSuggestion[] = [
        ...codes.map((value) => ({ value, kind: 'destination' as const })),
        ...categories.map((value) => ({ value, kind: 'category' as const })),
        ...titles.map((value) => ({ value, kind: 'title' as const })),
        ...locations.map((value) => ({ value, kind: 'location' as const })),
      ];
      return all.slice(0, SUGGESTION_LIMIT);
    },

    destinations: (): Promise<string[]> => links.destinationCodes(),

    async checkAirport(code: string): Promise<AirportCheckAnswer> {
      return { code, known: (await airports.known([code])).has(code) };
    },
  };
}
export type CrewLinkService = ReturnType<typeof createCrewLinkService>;
