import { serveRpc } from '@crewswap/kit';
import { RPC, SeedDemoPilotsRequest } from '@crewswap/proto';
import type { AuthContext } from '../domain/context';
import { seedDemoPilots } from '../domain/seed';

export function serveSeedDemoPilots(ctx: AuthContext) {
  return serveRpc({
    bus: ctx.bus,
    log: ctx.log,
    subject: RPC.seedDemoPilots,
    request: SeedDemoPilotsRequest,
    handle: (input) => seedDemoPilots(ctx, input.count),
  });
}
