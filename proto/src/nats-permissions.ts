import { outboxPendingSubject, realtimePilotSubject, REALTIME_BROADCAST, RPC, SESSION_ACTIVITY, sessionIssuedSubject, STREAMS, SUBJECTS, type StreamName } from './subjects';

/**
 * What each service may do on NATS, in proto's words: the one definition its NATS user's
 * permissions are made from (the chart's `files/nats-permissions.json` via `npm run nats-permissions`,
 * the local stack's nats-server config). A service that publishes or listens anywhere else is
 * refused by NATS.
 */
export interface ServiceBus {
  /** Event subjects it publishes through its outbox (its own stream's, and commands it asks notifications for). */
  publishes: readonly string[];
  /** Streams it reads: durable consumers, followers, reads to the end, their acks and lag. */
  reads: readonly StreamName[];
  /** Request/reply subjects it answers (it may reply to whoever asked). */
  serves: readonly string[];
  /** Request/reply subjects it asks. */
  asks: readonly string[];
  /** Core-NATS subjects it publishes. */
  says: readonly string[];
  /** Core-NATS subjects it hears (wildcards allowed). */
  hears: readonly string[];
}

/** Every process with a runtime: its session guard, restart listener, outbox-pending answer and settings client. */
const runtime = (service: string): ServiceBus => ({
  publishes: [],
  reads: ['AUTH', 'ADMIN'],
  serves: [outboxPendingSubject(service)],
  asks: [outboxPendingSubject('auth'), outboxPendingSubject('admin'), sessionIssuedSubject('auth'), sessionIssuedSubject('admin'), RPC.getSettings],
  says: [SESSION_ACTIVITY],
  hears: [SUBJECTS.settingsChanged],
});

const merge = (...parts: Partial<ServiceBus>[]): ServiceBus => {
  const all = (key: keyof ServiceBus) => [...new Set(parts.flatMap((part) => part[key] ?? []))];
  return { publishes: all('publishes'), reads: all('reads') as StreamName[], serves: all('serves'), asks: all('asks'), says: all('says'), hears: all('hears') };
};

export const NATS_SERVICES = {
  auth: merge(runtime('auth'), {
    publishes: [...STREAMS.AUTH, SUBJECTS.sendMail],
    serves: [RPC.setSystemState, RPC.seedDemoPilots, sessionIssuedSubject('auth')],
    asks: [RPC.tripCounts],
    hears: [SESSION_ACTIVITY],
  }),
  admin: merge(runtime('admin'), {
    publishes: [...STREAMS.ADMIN, SUBJECTS.sendMail],
    reads: ['SWAPS'],
    serves: [RPC.getSettings, sessionIssuedSubject('admin')],
    asks: [RPC.setSystemState, RPC.purgePreview, RPC.purgeTrips, RPC.purgeNotifications],
    hears: [SESSION_ACTIVITY],
  }),
  trips: merge(runtime('trips'), {
    publishes: [...STREAMS.TRIPS, SUBJECTS.sendPush],
    reads: ['SWAPS'],
    serves: [RPC.importTrips, RPC.purgeTrips, RPC.purgePreview, RPC.seedDemoTrips, RPC.tripCounts, RPC.knownAirports],
  }),
  swaps: merge(runtime('swaps'), {
    publishes: [...STREAMS.SWAPS, SUBJECTS.sendMail, SUBJECTS.sendPush],
    reads: ['TRIPS', 'NOTIFICATIONS'],
    asks: [outboxPendingSubject('trips')],
  }),
  notifications: merge(runtime('notifications'), {
    publishes: [...STREAMS.NOTIFICATIONS],
    reads: ['NOTIFICATIONS', 'SWAPS'],
    serves: [RPC.purgeNotifications],
    says: [realtimePilotSubject('*')],
  }),
  'push-sender': merge(runtime('push-sender'), {
    // It runs an outbox relay on the notifications schema's outbox, which notifications writes too:
    // whichever process takes a batch publishes it, so push-sender may publish all notifications may.
    publishes: [...STREAMS.NOTIFICATIONS],
    reads: ['NOTIFICATIONS'],
    says: [realtimePilotSubject('*')],
  }),
  'roster-ingest': merge(runtime('roster-ingest'), {
    publishes: [...STREAMS.ROSTER, ...STREAMS.ROSTER_MAIL, SUBJECTS.sendMail],
    reads: ['ROSTER_MAIL'],
    asks: [RPC.importTrips],
  }),
  links: merge(runtime('links'), {
    asks: [RPC.knownAirports],
  }),
  // No database and no outbox: it follows the streams and tells each pilot's open apps.
  realtime: merge({ ...runtime('realtime'), serves: [] }, {
    reads: ['TRIPS', 'ROSTER', 'SWAPS'],
    hears: [realtimePilotSubject('*'), REALTIME_BROADCAST],
  }),
} satisfies Record<string, ServiceBus>;
export type NatsService = keyof typeof NATS_SERVICES;

/** A NATS user's permissions, as nats-server's configuration spells them. */
export interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  allow_responses?: boolean;
}

/**
 * The permissions of one service's user on a NATS where subjects carry `prefix.` and streams
 * `prefix_` (NATS_PREFIX; empty in production). Every process makes or updates every stream at
 * start (ensureStreams), so each may ask JetStream about and create any of them; only the streams
 * it reads may it consume. Replies come to `_INBOX.>` (NATS' default inbox).
 */
export function natsPermissions(service: NatsService, prefix = ''): NatsPermissions {
  const bus: ServiceBus = NATS_SERVICES[service];
  const subject = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const stream = (name: StreamName) => (prefix ? `${prefix}_${name}` : name);
  const api = '$JS.API';
  const streams = (Object.keys(STREAMS) as StreamName[]).map(stream);
  const read = bus.reads.map(stream);
  const publish = [
    ...bus.publishes.map(subject),
    ...bus.asks.map(subject),
    ...bus.says.map(subject),
    `${api}.INFO`,
    ...streams.flatMap((name) => [`${api}.STREAM.INFO.${name}`, `${api}.STREAM.CREATE.${name}`, `${api}.STREAM.UPDATE.${name}`]),
    ...read.flatMap((name) => [
      `${api}.CONSUMER.CREATE.${name}`,
      `${api}.CONSUMER.CREATE.${name}.>`,
      `${api}.CONSUMER.DURABLE.CREATE.${name}.*`,
      `${api}.CONSUMER.INFO.${name}.*`,
      `${api}.CONSUMER.DELETE.${name}.*`,
      `${api}.CONSUMER.MSG.NEXT.${name}.*`,
      `${api}.STREAM.MSG.GET.${name}`,
      `${api}.DIRECT.GET.${name}`,
      `${api}.DIRECT.GET.${name}.>`,
      `$JS.ACK.${name}.>`,
      `$JS.FC.${name}.>`,
    ]),
  ];
  const subscribe = ['_INBOX.>', ...bus.serves.map(subject), ...bus.hears.map(subject)];
  return {
    publish: { allow: [...new Set(publish)] },
    subscribe: { allow: [...new Set(subscribe)] },
    ...(bus.serves.length > 0 ? { allow_responses: true } : {}),
  };
}

/** The operators' user: what the runbook's `nats` commands (from the NATS chart's nats-box) log in as. */
export const NATS_SRE_USER = 'sre';

/**
 * The operators' permissions: ask JetStream about streams and consumers (`nats stream report`,
 * `nats consumer info`), nothing more. No event published, no consumer made or deleted, no message
 * read: looking cannot change what the services see, nor read a pilot's data. Stream names are
 * wildcards, so a prefix changes nothing.
 */
export function natsSrePermissions(): NatsPermissions {
  const api = '$JS.API';
  return {
    publish: { allow: [`${api}.INFO`, `${api}.STREAM.INFO.*`, `${api}.STREAM.LIST`, `${api}.STREAM.NAMES`, `${api}.CONSUMER.INFO.*.*`, `${api}.CONSUMER.LIST.*`, `${api}.CONSUMER.NAMES.*`] },
    subscribe: { allow: ['_INBOX.>'] },
  };
}

/** Every service's permissions with no prefix, and the operators': the chart's `files/nats-permissions.json`. */
export function natsPermissionsFile(): string {
  const users = {
    ...Object.fromEntries((Object.keys(NATS_SERVICES) as NatsService[]).map((service) => [service, natsPermissions(service)])),
    [NATS_SRE_USER]: natsSrePermissions(),
  };
  return `${JSON.stringify(users, null, 2)}\n`;
}

/**
 * A nats-server `authorization` block with one user per service (and any extra users, e.g. the
 * local stack's seeding tool with no limits, or the operators' with natsSrePermissions()),
 * permissions for `prefix`.
 */
export function natsAuthorizationConfig(passwords: Partial<Record<NatsService, string>>, prefix = '', extra: { user: string; password: string; permissions?: NatsPermissions }[] = []): string {
  const users = [
    ...(Object.keys(NATS_SERVICES) as NatsService[])
      .filter((service) => passwords[service])
      .map((service) => ({ user: service, password: passwords[service]!, permissions: natsPermissions(service, prefix) })),
    ...extra,
  ];
  return `authorization: ${JSON.stringify({ users }, null, 2)}\n`;
}
