import { GetSettingsReply, RPC, SETTING_DEFAULTS, SUBJECTS, type SettingKey } from '@crewswap/proto';
import type { Logger } from 'pino';
import { eventChannel, subscribeDirect } from './direct';
import type { Bus } from './nats';
import { requestRpc } from './rpc';

export interface SettingsClient {
  get(key: SettingKey): Promise<string>;
  stop(): void;
}

/**
 * Settings owned by the admin service, read over request/reply and cached. Each
 * `admin.settings.changed` that passes (published through JetStream, heard here on core NATS in
 * the trace of the change) updates the cache; one that does not match its schema drops it. The
 * cache is dropped after a minute in any case. If admin cannot answer, the last known value or
 * the default is used.
 */
export function createSettingsClient(bus: Bus, log: Logger, ttlMs = 60_000): SettingsClient {
  let cache: { values: Record<string, string>; at: number } | undefined;
  let lastKnown: Record<string, string> = {};
  const subscription = subscribeDirect({
    bus,
    log,
    channel: eventChannel(SUBJECTS.settingsChanged),
    handle: ({ data }) => {
      if (cache) cache.values[data.key] = data.value;
      lastKnown[data.key] = data.value;
    },
    // A change it cannot read: ask admin afresh rather than keep what may be stale.
    unreadable: () => {
      cache = undefined;
    },
  });

  return {
    async get(key) {
      if (!cache || Date.now() - cache.at > ttlMs) {
        try {
          const values = await requestRpc(bus, RPC.getSettings, {}, GetSettingsReply, 2000);
          cache = { values, at: Date.now() };
          lastKnown = values;
        } catch (error) {
          log.warn({ err: error }, 'settings unavailable; using the last known values');
          return lastKnown[key] ?? SETTING_DEFAULTS[key];
        }
      }
      return cache.values[key] ?? SETTING_DEFAULTS[key];
    },
    stop() {
      subscription.stop();
    },
  };
}
