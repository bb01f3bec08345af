import type { Clock, Db, Outbox } from '@crewswap/kit';
import { PushKind, SUBJECTS } from '@crewswap/proto';
import type { HeldPush, HeldPushes } from '../data/held-pushes';
import { foldedPush, inQuietHours } from './quiet-hours';

/** Pilots released in one transaction: one statement takes their pushes, one insert queues the folded ones. */
const PILOTS_PER_BATCH = 500;

/**
 * Sends what quiet hours held, once they are over: each pilot's held pushes become one push
 * ('5 new swap offers'), queued through the outbox in the transaction that takes them, so a crash
 * loses none and sends none twice. Runs every minute in push-sender.
 */
export function createReleaseHeld(deps: { db: Db; held: HeldPushes; outbox: Outbox; clock: Clock }) {
  const { db, held, outbox, clock } = deps;
  return {
    async execute(): Promise<{ pilots: number; pushes: number }> {
      const now = clock.now();
      const due = (await held.pilots()).filter((pilot) => !inQuietHours(now, pilot.quietHours)).map((pilot) => pilot.pilotId);
      let pushes = 0;
      for (let i = 0; i < due.length; i += PILOTS_PER_BATCH) {
        await db.transaction(async (trx) => {
          const taken = await held.take(due.slice(i, i + PILOTS_PER_BATCH), now, trx);
          pushes += taken.length;
          const byPilot = new Map<string, HeldPush[]>();
          for (const push of taken) byPilot.set(push.pilotId, [...(byPilot.get(push.pilotId) ?? []), push]);
          const commands = [...byPilot].map(([pilotId, pilotPushes]) => ({
            data: {
              pilotId,
              kind: PushKind.parse(pilotPushes[0]!.kind),
              ...foldedPush(pilotPushes),
              // Each held push is already in the bell; the folded one is not another entry.
              dedupeKey: `released:${pilotId}:${pilotPushes[0]!.logId}`,
            },
          }));
          if (commands.length > 0) await outbox.writeMany(trx, SUBJECTS.sendPush, commands);
        });
      }
      return { pilots: due.length, pushes };
    },
  };
}
export type ReleaseHeld = ReturnType<typeof createReleaseHeld>;
