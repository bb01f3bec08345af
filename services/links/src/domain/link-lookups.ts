import {
  CREW_LINK_CATEGORIES,
  CREW_LINK_CATEGORY_LABELS,
  CREW_LINK_LOOKUP_MIN,
  type AirportCheck as AirportCheckAnswer,
  type CrewLinkCategory,
  type CrewLinkSuggestion,
  type SimilarCrewLink,
} from '@crewswap/proto';
import type { LinkRepository } from '../data/links';
import type { AirportCheck } from '../events/airports';

const SIMILAR_LIMIT = 5;
const SUGGESTION_LIMIT = 10;

/** The lookups the link form and search box make as a pilot types: reads, nothing changes. */
export function createLinkLookups(deps: { links: LinkRepository; airports: AirportCheck }) {
  const { links, airports } = deps;
  return {
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

    async checkAirport(code: string): Promise<AirportCheckAnswer> {
      return { code, known: (await airports.known([code])).has(code) };
    },
  };
}
export type LinkLookups = ReturnType<typeof createLinkLookups>;
