import { serveRpc, type Bus, type Logger } from '@crewswap/kit';
import { RPC, SystemStateRequest } from '@crewswap/proto';
import type { createSetSystemState } from '../domain/set-system-state';

/**
 * Emergency shutdown and resume, asked by admin over request/reply so the console learns how many
 * pilot sessions ended. (A request, not the admin.system events: a consumer lagging behind could
 * apply a shutdown after its resume.)
 */
export function serveSystemState(deps: { bus: Bus; log: Logger; setSystemState: ReturnType<typeof createSetSystemState> }): ReturnType<typeof serveRpc> {
  return serveRpc({
    bus: deps.bus,
    log: deps.log,
    subject: RPC.setSystemState,
    request: SystemStateRequest,
    handle: (input) => deps.setSystemState.execute(input),
  });
}
