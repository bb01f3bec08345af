import type { Executor } from '@crewswap/kit';

/** The record of swap alerts sent: one row per (offer, recipient, description), never sent twice. */
export function createAlertsRepository() {
  return {
    /** Records the alerts not sent before and returns the recipients they are new for. */
    async claim(ex: Executor, tripId: string, descriptionHash: string, recipientIds: string[]): Promise<string[]> {
      if (recipientIds.length === 0) return [];
      const claimed: string[] = [];
      // Chunks keep each statement well under Postgres's bind-parameter limit.
      for (let i = 0; i < recipientIds.length; i += 5000) {
        const rows = recipientIds.slice(i, i + 5000).map((recipientId) => ({ trip_id: tripId, recipient_id: recipientId, description_hash: descriptionHash }));
        const inserted: { recipient_id: string }[] = await ex('alerts_sent')
          .insert(rows)
          .onConflict(['trip_id', 'recipient_id', 'description_hash'])
          .ignore()
          .returning('recipient_id');
        claimed.push(...inserted.map((row) => row.recipient_id));
      }
      return claimed;
    },

    async sentFor(ex: Executor, tripId: string): Promise<{ recipientId: string; descriptionHash: string }[]> {
      const rows: { recipient_id: string; description_hash: string }[] = await ex('alerts_sent')
        .where({ trip_id: tripId })
        .select('recipient_id', 'description_hash')
        .orderBy(['recipient_id', 'description_hash']);
      return rows.map((row) => ({ recipientId: row.recipient_id, descriptionHash: row.description_hash }));
    },
  };
}
export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
