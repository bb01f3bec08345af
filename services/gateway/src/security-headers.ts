import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The security headers every page carries (the web app, the API reference, any HTML a service
 * answers), worked out once at start: helmet's values depend only on its options, so running it
 * for every request (as a per-request hook does) repeats the same work and allocations for the
 * same dozen strings.
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Ant Design writes its CSS-in-JS into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // wa.me links and QR images open elsewhere; the app itself loads nothing cross-origin.
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  headers['permissions-policy'] = PERMISSIONS_POLICY;
  return headers;
}

/**
 * The headers an API answer (JSON, a calendar file) carries, as OWASP's REST cheat sheet lists
 * them. The page headers' other dozen (script and style sources, permissions, opener, DNS
 * prefetch...) govern documents only; on each of the many API answers they were about 700 bytes and
 * a tenth of the gateway's work that did nothing. An answer opened as a page by mistake loads
 * nothing and cannot be framed; nosniff keeps JSON from being run as script; CORP keeps other
 * sites from reading it into theirs; HSTS is the page set's own.
 */
export function apiSecurityHeaders(page: Record<string, string> = securityHeaders()): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': page['cross-origin-resource-policy']!,
    'strict-transport-security': page['strict-transport-security']!,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

/** Whether a service's answer is a page (HTML), to be sent with the page headers. */
export const isPage = (contentType: string | string[] | undefined): boolean => typeof contentType === 'string' && contentType.startsWith('text/html');

/**
 * Browser features no page of CrewSwap uses are switched off, so injected script or a framed page
 * cannot ask for them either. The app copies text (crew links, a pilot's email), so clipboard-write
 * stays allowed for its own origin.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'clipboard-write=(self)',
].join(', ');
