import { ROSTER_MAX_BYTES } from '@crewswap/proto';

/**
 * The one place that says which service answers which `/api` path. Entries are tried in order,
 * so the narrower paths come before the wider ones of the same resource.
 */
export const SERVICES = ['auth', 'trips', 'swaps', 'admin', 'notifications', 'roster-ingest', 'realtime', 'links'] as const;
export type ServiceName = (typeof SERVICES)[number];

const ROUTES: readonly [RegExp, ServiceName][] = [
  // swaps answers the matching engine's paths under a trip
  [/^\/api\/trips\/[^/]+\/(matches|send-notifications)$/, 'swaps'],
  [/^\/api\/available-swaps$/, 'swaps'],
  [/^\/api\/swaps(\/|$)/, 'swaps'],
  [/^\/api\/admin\/swaps(\/|$)/, 'swaps'],
  // The crewing desk: swaps owns the agreements it decides.
  [/^\/api\/admin\/swap-requests(\/|$)/, 'swaps'],
  // Wishes are kept and matched where the offers are (docs/DECISIONS.md).
  [/^\/api\/notifications\/wishes(\/|$)/, 'swaps'],
  [/^\/api\/(trips|iata-codes|master-calendar|crossover-trips|usual-requests|stats|calendar)(\/|$)/, 'trips'],
  // A pilot's month is worked out from their trips (issue 55).
  [/^\/api\/pilot\/month$/, 'trips'],
  [/^\/api\/(auth|pilot|pilots|check-deleted-pilot|restore-pilot)(\/|$)/, 'auth'],
  [/^\/api\/admin\/(pilots|sessions|recent-registrations|cleanup\/deleted-pilots)(\/|$)/, 'auth'],
  [/^\/api\/admin\/(iata-codes|excluded-airports|analytics)(\/|$)/, 'trips'],
  [/^\/api\/admin\/roster-history(\/|$)/, 'roster-ingest'],
  [/^\/api\/roster(\/|$)/, 'roster-ingest'],
  [/^\/api\/admin(\/|$)/, 'admin'],
  // Public settings and the daily access code (for a signed-in admin or pilot, so not under /api/admin).
  [/^\/api\/(settings|access-code)(\/|$)/, 'admin'],
  [/^\/api\/notifications(\/|$)/, 'notifications'],
  [/^\/api\/sse(\/|$)/, 'realtime'],
  [/^\/api\/crew-links(\/|$)/, 'links'],
];

/** The API reference, which the gateway answers itself (GET only): no service owns it. */
export const API_DOCS_PATH = '/api/docs';
export const OPENAPI_PATH = '/api/docs/openapi.json';
export const answeredByGateway = (method: string, path: string): boolean => method === 'GET' && (path === API_DOCS_PATH || path === OPENAPI_PATH);

/** The service that owns a request path (query string ignored), or undefined for an unknown path. */
export function ownerOf(url: string): ServiceName | undefined {
  const path = url.split('?')[0] ?? '';
  return ROUTES.find(([pattern]) => pattern.test(path))?.[1];
}

/** Under this path every answer is an open-ended event stream, held open for as long as the client stays. */
export const STREAMS_PREFIX = '/api/sse';

/** Request bodies above this are refused at the gateway (413), unless the route says otherwise. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * The roster upload carries a calendar file of up to 10 MB, wrapped in a multipart form whose
 * boundaries and part headers add a few hundred bytes; 64 KiB leaves room for any client's.
 */
export const MULTIPART_ALLOWANCE = 64 * 1024;

const BODY_LIMITS: readonly [RegExp, number][] = [[/^\/api\/roster\/upload$/, ROSTER_MAX_BYTES + MULTIPART_ALLOWANCE]];

/** The largest body the gateway lets through to a path (query string ignored). */
export function bodyLimitOf(url: string): number {
  const path = url.split('?')[0] ?? '';
  return BODY_LIMITS.find(([pattern]) => pattern.test(path))?.[1] ?? DEFAULT_BODY_LIMIT;
}
