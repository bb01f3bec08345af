import { fromRow, type Db, type Executor } from '@crewswap/kit';
import { ALL_DESTINATIONS, CREW_LINK_LIMITS, type CrewLink, type CrewLinkCategory, type CrewLinkLike, type SimilarCrewLink } from '@crewswap/proto';

interface LinkRow {
  id: string;
  title: string;
  category: CrewLinkCategory;
  description: string;
  discount_details: string | null;
  destinations: string;
  website: string | null;
  location_name: string | null;
  location_coordinates: string | null;
  contact_info: string | null;
  is_active: boolean;
  last_edited_by: string;
  last_edited_at: Date;
  likes_count: number;
  liked: boolean;
  editor_first_name: string | null;
  editor_last_name: string | null;
}

/** A link's stored fields, as the domain hands them over. */
export interface LinkFields {
  title: string;
  category: CrewLinkCategory;
  description: string;
  discountDetails: string | null;
  destinations: string;
  /** The codes of `destinations`, or ['ALL']. */
  destinationCodes: string[];
  website: string | null;
  locationName: string | null;
  locationCoordinates: string | null;
  contactInfo: string | null;
  isActive: boolean;
}

export interface LinkFilter {
  search?: string;
  category?: CrewLinkCategory;
  /** Links for any of these airports, plus those for ALL. */
  destinations?: string[];
}

const toRow = (fields: LinkFields) => ({
  title: fields.title,
  category: fields.category,
  description: fields.description,
  discount_details: fields.discountDetails,
  destinations: fields.destinations,
  destination_codes: fields.destinationCodes,
  website: fields.website,
  location_name: fields.locationName,
  location_coordinates: fields.locationCoordinates,
  contact_info: fields.contactInfo,
  is_active: fields.isActive,
});

const toLink = (row: LinkRow): CrewLink => ({
  ...fromRow(row, [
    'id',
    'title',
    'category',
    'description',
    'discount_details',
    'destinations',
    'website',
    'location_name',
    'location_coordinates',
    'contact_info',
    'is_active',
    'likes_count',
    'last_edited_by',
  ]),
  isLikedByCurrentUser: row.liked,
  lastEditedAt: row.last_edited_at.toISOString(),
  lastEditedByName: row.editor_first_name ? `${row.editor_first_name} ${row.editor_last_name ?? ''}`.trim() : null,
});

/** Case-insensitive "contains" without LIKE, so a typed % or _ is just a character. */
const contains = (column: string) => `strpos(lower(coalesce(${column}, '')), lower(?)) > 0`;

export function createLinkRepository(db: Db) {
  /** Links with their like count, whether `pilotId` liked each, and the editor's name. */
  function selectLinks(pilotId: string, trx: Executor) {
    return trx('crew_links as l')
      .leftJoin('pilots as p', function joinEditor() {
        this.on('p.id', 'l.last_edited_by').andOnVal('p.deleted', false);
      })
      .select(
        'l.*',
        'p.first_name as editor_first_name',
        'p.last_name as editor_last_name',
        trx.raw('(select count(*) from crew_link_likes k where k.link_id = l.id)::int as likes_count'),
        trx.raw('exists(select 1 from crew_link_likes k where k.link_id = l.id and k.pilot_id = ?) as liked', [pilotId]),
      );
  }

  async function likeState(linkId: string, pilotId: string, trx: Executor): Promise<CrewLinkLike> {
    const row = (await trx('crew_link_likes')
      .where({ link_id: linkId })
      .select(trx.raw('count(*)::int as count'), trx.raw('coalesce(bool_or(pilot_id = ?), false) as liked', [pilotId]))
      .first()) as { count: number; liked: boolean };
    return { likesCount: row.count, isLikedByCurrentUser: row.liked };
  }

  return {
    async list(pilotId: string, filter: LinkFilter, trx: Executor = db): Promise<CrewLink[]> {
      const query = selectLinks(pilotId, trx);
      if (filter.category) query.where('l.category', filter.category);
      if (filter.destinations && filter.destinations.length > 0) {
        query.whereRaw('l.destination_codes && ?::text[]', [[...filter.destinations, ALL_DESTINATIONS]]);
      }
      const search = filter.search?.trim();
      if (search) {
        query.where((where) => {
          for (const column of ['l.title', 'l.description', 'l.location_name', 'l.destinations', 'l.discount_details']) {
            where.orWhereRaw(contains(column), [search]);
          }
        });
      }
      const rows: LinkRow[] = await query
        .orderBy('l.is_active', 'desc')
        .orderBy('likes_count', 'desc')
        .orderBy('l.title')
        .limit(CREW_LINK_LIMITS.list);
      return rows.map(toLink);
    },

    async find(id: string, pilotId: string, trx: Executor = db): Promise<CrewLink | undefined> {
      const row: LinkRow | undefined = await selectLinks(pilotId, trx).where('l.id', id).first();
      return row && toLink(row);
    },

    async insert(fields: LinkFields, pilotId: string, at: Date, trx: Executor = db): Promise<string> {
      const [row] = (await trx('crew_links')
        .insert({ ...toRow(fields), created_by: pilotId, created_at: at, last_edited_by: pilotId, last_edited_at: at })
        .returning('id')) as { id: string }[];
      return row!.id;
    },

    /** Answers false when there is no such link. */
    async update(id: string, fields: LinkFields, pilotId: string, at: Date, trx: Executor = db): Promise<boolean> {
      const count = await trx('crew_links')
        .where({ id })
        .update({ ...toRow(fields), last_edited_by: pilotId, last_edited_at: at });
      return count > 0;
    },

    async remove(id: string, trx: Executor = db): Promise<boolean> {
      return (await trx('crew_links').where({ id }).delete()) > 0;
    },

    /** Titles containing `text`, for the add form's "similar entries" hint. */
    async similar(text: string, limit: number, trx: Executor = db): Promise<SimilarCrewLink[]> {
      const rows: Pick<LinkRow, 'id' | 'title' | 'category' | 'destinations'>[] = await trx('crew_links')
        .whereRaw(contains('title'), [text])
        .select('id', 'title', 'category', 'destinations')
        .orderBy('title')
        .limit(limit);
      return rows.map((row) => ({ id: row.id, title: row.title, category: row.category, destinations: row.destinations }));
    },

    /** Distinct titles and place names containing `text`, shortest first (closest to what was typed). */
    async matchingNames(text: string, limit: number, trx: Executor = db): Promise<{ titles: string[]; locations: string[] }> {
      const titles: { value: string }[] = await trx('crew_links')
        .whereRaw(contains('title'), [text])
        .select('title as value')
        .groupBy('title')
        .orderByRaw('length(title), title')
        .limit(limit);
      const locations: { value: string }[] = await trx('crew_links')
        .whereRaw(contains('location_name'), [text])
        .select('location_name as value')
        .groupBy('location_name')
        .orderByRaw('length(location_name), location_name')
        .limit(limit);
      return { titles: titles.map((row) => row.value), locations: locations.map((row) => row.value) };
    },

    /** Every airport code that some link names, sorted ('ALL' left out). */
    async destinationCodes(trx: Executor = db): Promise<string[]> {
      const rows: { code: string }[] = await trx
        .select('code')
        .from(trx.raw('(select distinct unnest(destination_codes) as code from crew_links) as codes'))
        .whereNot('code', ALL_DESTINATIONS)
        .orderBy('code');
      return rows.map((row) => row.code);
    },

    /**
     * One like per pilot per link: the primary key with ON CONFLICT DO NOTHING makes a second or
     * concurrent like a no-op. Answers undefined when the link does not exist (or just went).
     */
    async like(linkId: string, pilotId: string, trx: Executor = db): Promise<CrewLinkLike | undefined> {
      try {
        await trx('crew_link_likes').insert({ link_id: linkId, pilot_id: pilotId }).onConflict(['link_id', 'pilot_id']).ignore();
      } catch (error) {
        if ((error as { code?: string }).code === '23503') return undefined;
        throw error;
      }
      return likeState(linkId, pilotId, trx);
    },

    async unlike(linkId: string, pilotId: string, trx: Executor = db): Promise<CrewLinkLike | undefined> {
      await trx('crew_link_likes').where({ link_id: linkId, pilot_id: pilotId }).delete();
      const exists = await trx('crew_links').where({ id: linkId }).first('id');
      return exists ? likeState(linkId, pilotId, trx) : undefined;
    },
  };
}
export type LinkRepository = ReturnType<typeof createLinkRepository>;
