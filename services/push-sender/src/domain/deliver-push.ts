import type { Clock, Logger } from '@crewswap/kit';
import { DEFAULT_NOTIFICATION_PREFERENCES, type AlertReason, type EventDataMap, type NotificationPreferences, type PushKind, type PushPayload } from '@crewswap/proto';
import type { HeldPushes } from '../data/held-pushes';
import type { NotificationLog } from '../data/notification-log';
import { inQuietHours } from './quiet-hours';
import type { SubscriptionReader } from '../data/subscriptions';
import type { WebPushClient } from './web-push-client';

export type PushOutcome = { result: 'done'; status: string } | { result: 'retry'; reason: string };

/** How long a push service keeps a push for a device that is offline. */
const PUSH_TTL_SECONDS = 3600;

export function wantsPush(kind: PushKind, preferences: NotificationPreferences): boolean {
  // A test push is asked for there and then, from the preferences dialog.
  if (kind === 'test') return true;
  if (!preferences.enabled) return false;
  if (kind === 'swap_proposal') return preferences.swapProposals;
  // The pilot's own roster changed (a roster address fetched on its own), or its fetching stopped: no preference of its own.
  if (kind === 'roster_change') return true;
  return kind === 'swap_offer' ? preferences.swapNotifications : preferences.whatsappGroupAlerts;
}

/** Held for the end of quiet hours: in them, unless an urgent offer the pilot lets through. */
export function holdsPush(command: { urgent?: boolean }, preferences: NotificationPreferences, at: Date): boolean {
  return inQuietHours(at, preferences.quietHours) && !(command.urgent && preferences.urgent);
}

export interface DeliverPushDeps {
  subscriptions: SubscriptionReader;
  notificationLog: NotificationLog;
  held: HeldPushes;
  client: WebPushClient;
  clock: Clock;
  log: Logger;
  maxAgeMs: number;
  counters: { sent(): void; failed(reason: 'gone' | 'error'): void };
  /** Tells the pilot's open apps that an alert is now in their bell. */
  bellWritten(pilotId: string, reason: AlertReason, at: Date): void;
}

/**
 * One push command: dropped when stale, once per dedupe key, only to a pilot whose preferences
 * want it, to each of the pilot's devices not yet given it. A device the push service says is gone
 * (404/410) is forgotten; any other failure asks for a retry.
 */
export function createDeliverPush(deps: DeliverPushDeps) {
  const { subscriptions, notificationLog, client, clock } = deps;
  return {
    async execute(command: { id: string; occurredAt: string; data: EventDataMap['notifications.cmd.push'] }): Promise<PushOutcome> {
      const now = clock.now();
      const age = now.getTime() - Date.parse(command.occurredAt);
      if (!(age <= deps.maxAgeMs)) {
        await notificationLog.record(command.id, command.data, 'expired', `older than ${Math.round(deps.maxAgeMs / 1000)} s`, now);
        return { result: 'done', status: 'expired' };
      }
      const entry = await notificationLog.open(command.id, command.data, now);
      if (entry.commandId !== command.id) return { result: 'done', status: 'duplicate' };
      if (entry.status !== 'sending' && entry.status !== 'failed') return { result: 'done', status: entry.status };

      const { pilotId, kind } = command.data;
      const mine = await subscriptions.withPreferences(pilotId);
      const preferences = mine.preferences ?? DEFAULT_NOTIFICATION_PREFERENCES;
      if (!wantsPush(kind, preferences)) {
        await notificationLog.settle(entry.id, { status: 'skipped', detail: 'turned off in preferences' }, now);
        return { result: 'done', status: 'skipped' };
      }
      // From here the row is in the bell, held or sent; an app open without push learns of it now.
      // Once: a retry after a failure finds the row 'failed', already told.
      if (entry.status === 'sending' && command.data.reason) deps.bellWritten(pilotId, command.data.reason, now);
      // Nothing is dropped: the row waits in held_pushes and goes out, folded, when quiet hours end.
      if (entry.status === 'sending' && holdsPush(command.data, preferences, now)) {
        await deps.held.hold(entry.id, pilotId, now);
        return { result: 'done', status: 'held' };
      }
      const delivered = new Set(entry.delivered);
      const targets = mine.subscriptions.filter((subscription) => !delivered.has(subscription.id));
      if (targets.length === 0) {
        const status = delivered.size > 0 ? 'sent' : 'no_subscription';
        await notificationLog.settle(entry.id, { status }, now);
        return { result: 'done', status };
      }

      const payload: PushPayload = {
        kind,
        title: command.data.title,
        body: command.data.body,
        url: command.data.url ?? '/',
        tag: command.data.dedupeKey,
        sentAt: now.toISOString(),
      };
      const text = JSON.stringify(payload);
      const failures: string[] = [];
      await Promise.all(
        targets.map(async (subscription) => {
          try {
            const { status, detail } = await client.send(subscription, text, PUSH_TTL_SECONDS);
            if (status >= 200 && status < 300) {
              delivered.add(subscription.id);
              deps.counters.sent();
            } else if (status === 404 || status === 410) {
              await subscriptions.remove(subscription.id);
              deps.counters.failed('gone');
            } else {
              failures.push(`${status} ${detail}`.trim());
              deps.counters.failed('error');
            }
          } catch (error) {
            failures.push((error as Error).message);
            deps.counters.failed('error');
          }
        }),
      );
      const settledAt = clock.now();
      if (failures.length > 0) {
        await notificationLog.settle(entry.id, { status: 'failed', delivered: [...delivered], detail: failures.join('; '), attempted: true }, settledAt);
        return { result: 'retry', reason: failures.join('; ') };
      }
      await notificationLog.settle(entry.id, { status: delivered.size > 0 ? 'sent' : 'no_subscription', delivered: [...delivered], detail: null, attempted: true }, settledAt);
      return { result: 'done', status: 'sent' };
    },
  };
}
export type DeliverPush = ReturnType<typeof createDeliverPush>;
