import { serveRpc, type Bus } from '@crewswap/kit';
import { PurgeNotificationsRequest, RPC } from '@crewswap/proto';
import type { Subscription } from 'nats';
import type { Logger } from 'pino';
import type { PurgeNotifications } from '../domain/purge';

/** Admin's cleanup asks over request/reply, as it asks trips. */
export function servePurgeRpc(deps: { bus: Bus; log: Logger; purge: PurgeNotifications }): Subscription {
  return serveRpc({ bus: deps.bus, log: deps.log, subject: RPC.purgeNotifications, request: PurgeNotificationsRequest, handle: (input) => deps.purge.execute(input) });
}
