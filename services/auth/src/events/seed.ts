import { serveRpc, type Bus, type Logger } from '@crewswap/kit';
import { RPC, SeedDemoPilotsRequest } from '@crewswap/proto';
import type { createSeedDemoPilots } from '../domain/seed';

export function serveSeedDemoPilots(deps: { bus: Bus; log: Logger; seedDemoPilots: ReturnType<typeof createSeedDemoPilots> }) {
  return serveRpc({
    bus: deps.bus,
    log: deps.log,
    subject: RPC.seedDemoPilots,
    request: SeedDemoPilotsRequest,
    handle: (input) => deps.seedDemoPilots.execute({ count: input.count }),
  });
}
