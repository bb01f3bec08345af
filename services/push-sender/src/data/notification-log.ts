import { randomUUID } from 'node:crypto';
import type { Db, Executor } from '@crewswap/kit';
import type { EventDataMap } from '@crewswap/proto';

/** held: waiting for the pilot's quiet hours to end; released: gone out folded into one push. */
export type NotificationStatus = 'sending' | 'sent' | 'failed' | 'skipped' | 'no_subscription' | 'expired' | 'held' | 'released';

export interface LogEntry {
  id: string;
  status: NotificationStatus;
  attempts: number;
  delivered: string[];
}

type PushCommand = EventDataMap['notifications.cmd.push'];

export function createNotificationLog(db: Db) {
  return {
    /**
     * The command's row, made on first sight: a dedupe key already logged (another command with
     * the same key, or this one again) returns the existing row instead.
     */
    async open(commandId: string, command: PushCommand, at: Date, trx: Executor = db): Promise<LogEntry & { commandId: string }> {
      const [fresh] = await trx('notification_log')
        .insert({
          id: randomUUID(),
          command_id: commandId,
          pilot_id: command.pilotId,
          kind: command.kind,
          dedupe_key: command.dedupeKey.slice(0, 300),
          title: command.title.slice(0, 300),
          body: command.body,
          url: (command.url ?? '/').slice(0, 500),
          reason: command.reason ?? null,
          status: 'sending',
          created_at: at,
          updated_at: at,
        })
        .onConflict(['pilot_id', 'dedupe_key'])
        .ignore()
        .returning(['id', 'command_id', 'status', 'attempts', 'delivered']);
      const row = fresh ?? await trx('notification_log').where({ pilot_id: command.pilotId, dedupe_key: command.dedupeKey.slice(0, 300) }).first();
      return { id: row.id, commandId: row.command_id, status: row.status, attempts: row.attempts, delivered: row.delivered };
    },

    async settle(id: string, change: { status: NotificationStatus; delivered?: string[]; detail?: string | null; attempted?: boolean }, at: Date, trx: Executor = db): Promise<void> {
      await trx('notification_log')
        .where({ id })
        .update({
          status: change.status,
          ...(change.delivered ? { delivered: JSON.stringify(change.delivered) } : {}),
          ...(change.detail !== undefined ? { detail: change.detail?.slice(0, 2000) ?? null } : {}),
          ...(change.attempted ? { attempts: trx.raw('attempts + 1') } : {}),
          updated_at: at,
        });
    },

    /** For logging a command that never gets a row of its own (too old on arrival). */
    async record(commandId: string, command: PushCommand, status: NotificationStatus, detail: string, at: Date, trx: Executor = db): Promise<void> {
      const entry = await this.open(commandId, command, at, trx);
      if (entry.status === 'sending' && entry.commandId === commandId) await this.settle(entry.id, { status, detail }, at, trx);
    },
  };
}
export type NotificationLog = ReturnType<typeof createNotificationLog>;
