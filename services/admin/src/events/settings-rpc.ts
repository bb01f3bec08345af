import { serveRpc, type Bus, type Logger } from '@crewswap/kit';
import { RPC, type GetSettingsReply } from '@crewswap/proto';
import { z } from 'zod';
import type { SettingsRepository } from '../data/settings-repository';

/** Answers every setting as key -> value; kit settings clients cache it until `settings.changed`. */
export function serveSettingsRpc(deps: { bus: Bus; log: Logger; settings: SettingsRepository }): ReturnType<typeof serveRpc> {
  return serveRpc({
    bus: deps.bus,
    log: deps.log,
    subject: RPC.getSettings,
    request: z.object({}),
    handle: async (): Promise<z.infer<typeof GetSettingsReply>> => Object.fromEntries((await deps.settings.list()).map((setting) => [setting.key, setting.value])),
  });
}
