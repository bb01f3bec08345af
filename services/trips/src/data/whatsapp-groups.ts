import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { CrewKey } from './crew';

export interface StoredGroup {
  id: string;
  flightNoStart: string;
  startDate: string;
  endDate: string;
  groupName: string;
  inviteLink: string | null;
  createdByPilotId: string;
  creatorName: string;
  createdAt: string;
  updatedAt: string;
}

interface GroupRow {
  id: string;
  flight_no_start: string;
  start_date: string;
  end_date: string;
  group_name: string;
  invite_link: string | null;
  created_by_pilot_id: string;
  creator_name: string;
  created_at: Date;
  updated_at: Date;
}

function toGroup(row: GroupRow): StoredGroup {
  return {
    ...fromRow(row, ['id', 'flight_no_start', 'start_date', 'end_date', 'group_name', 'invite_link', 'created_by_pilot_id', 'creator_name']),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Each flight and start date has at most one group, which its whole crew shares. */
export function createWhatsappGroupRepository(db: Db) {
  return {
    async find(key: CrewKey, trx: Executor = db, forUpdate = false): Promise<StoredGroup | undefined> {
      const query = trx('whatsapp_groups').where({ flight_no_start: key.flightNoStart, start_date: key.startDate }).first();
      const row: GroupRow | undefined = await (forUpdate ? query.forUpdate() : query);
      return row && toGroup(row);
    },

    /** Inserts unless the crew already has a group (a crew member was quicker); answers the new one or undefined. */
    async insertIfAbsent(
      group: { flightNoStart: string; startDate: string; endDate: string; groupName: string; createdByPilotId: string; creatorName: string },
      trx: Executor = db,
    ): Promise<StoredGroup | undefined> {
      const rows = (await trx('whatsapp_groups')
        .insert({
          flight_no_start: group.flightNoStart,
          start_date: group.startDate,
          end_date: group.endDate,
          group_name: group.groupName,
          created_by_pilot_id: group.createdByPilotId,
          creator_name: group.creatorName,
        })
        .onConflict(['flight_no_start', 'start_date'])
        .ignore()
        .returning('*')) as GroupRow[];
      return rows[0] && toGroup(rows[0]);
    },

    async update(id: string, fields: { inviteLink?: string; createdByPilotId?: string; creatorName?: string }, trx: Executor = db): Promise<StoredGroup> {
      const change: Record<string, unknown> = { updated_at: trx.fn.now() };
      if (fields.inviteLink !== undefined) change.invite_link = fields.inviteLink;
      if (fields.createdByPilotId !== undefined) change.created_by_pilot_id = fields.createdByPilotId;
      if (fields.creatorName !== undefined) change.creator_name = fields.creatorName;
      const [row] = (await trx('whatsapp_groups').where({ id }).update(change).returning('*')) as GroupRow[];
      return toGroup(row!);
    },

    async remove(id: string, trx: Executor = db): Promise<void> {
      await trx('whatsapp_groups').where({ id }).delete();
    },

    /** Groups of trips that ended before `cutoff` go with the daily purge of those trips. */
    async removeEndedBefore(cutoff: string, trx: Executor = db): Promise<number> {
      return trx('whatsapp_groups').where('end_date', '<', cutoff).delete();
    },

    async countActive(today: string, trx: Executor = db): Promise<number> {
      const row = (await trx('whatsapp_groups').whereNotNull('invite_link').where('end_date', '>=', today).count({ n: '*' }).first()) as { n: number } | undefined;
      return Number(row?.n ?? 0);
    },
  };
}
export type WhatsappGroupRepository = ReturnType<typeof createWhatsappGroupRepository>;
