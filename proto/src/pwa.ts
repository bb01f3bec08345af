/**
 * Paths and timings the app, its service worker and the server agree on (zod-free: the browser
 * bundle imports this through `@crewswap/proto/browser`).
 */
/** The service worker; the gateway serves it (and the manifest) with `Cache-Control: no-cache`. */
export const SERVICE_WORKER_PATH = '/sw.js';
export const WEB_MANIFEST_PATH = '/manifest.webmanifest';
export const SSE_EVENTS_PATH = '/api/sse/events';
export const VAPID_PUBLIC_KEY_PATH = '/api/notifications/vapid-public-key';
/** The server sends a heartbeat this often; a client may treat twice this without one as a dead stream. */
export const HEARTBEAT_INTERVAL_MS = 25_000;
/** The text of the SSE message after a roster import; the client refreshes on 'trips added'. */
export const tripsAddedMessage = (count: number) => `${count} trips added`;
