import { serveRpc, type Bus, type Logger } from '@crewswap/kit';
import { RPC, type GetSettingsReply } from '@crewswap/proto';
import { z } from 'zod';
import type { SettingsService } from '../domain/settings';

/** Answers every setting as key -> value; kit settings clients cache it until `settings.changed`. */
export function serveSettingsRpc(deps: { bus: Bus; log: Logger; settings: SettingsService }): ReturnType<typeof serveRpc> {
  return serveRpc({
    bus: deps.bus,
    log: deps.log,
    subject: RPC.getSettings,
    request: z.object({}),
    handle: async (): Promise<z.infer<typeof GetSettingsReply>> => deps.settings.all(),
  });
}
