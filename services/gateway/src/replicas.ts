/**
 * How long a replica that refused a connection is passed over. Short: a restarted replica is back
 * in a second or two, and until then every request that went to it would fail or retry.
 */
export const PASSED_OVER_MS = 2000;

/**
 * A service's replicas (its `<SERVICE>_URL` lists them, separated by commas), taken in turn per
 * request. One that refused a connection is passed over for PASSED_OVER_MS; when all of them have,
 * they are taken in turn anyway, so a request still finds one that is back.
 */
export interface Replicas {
  readonly urls: readonly string[];
  /** The replica for the next request. */
  next(): string;
  /** This replica refused a connection: pass it over for a while. */
  refused(url: string): void;
}

export function replicasOf(urls: readonly string[], now: () => number = Date.now): Replicas {
  if (urls.length === 0) throw new Error('a service needs at least one address');
  let turn = 0;
  const passedOverUntil = new Map<string, number>();
  return {
    urls,
    next() {
      const at = now();
      for (let tried = 0; tried < urls.length; tried += 1) {
        const url = urls[(turn + tried) % urls.length]!;
        if ((passedOverUntil.get(url) ?? 0) <= at) {
          turn = (turn + tried + 1) % urls.length;
          return url;
        }
      }
      const url = urls[turn % urls.length]!;
      turn = (turn + 1) % urls.length;
      return url;
    },
    refused(url) {
      passedOverUntil.set(url, now() + PASSED_OVER_MS);
    },
  };
}

/** `http://a:1, http://b:2` -> the addresses, trimmed; empty entries dropped. */
export function splitUrls(list: string): string[] {
  return list
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
}

/**
 * Whether a failed call never reached the replica and can go to another without anything
 * happening twice: its connection was refused (nothing listens: the replica is down or
 * restarting) and it has no body. A body is a stream the failed call has already destroyed, so
 * a write that meets a replica just gone down is answered 503 (the app sends it again); the
 * replica is passed over from then on.
 */
export function neverReached(error: unknown, body: unknown): boolean {
  return body === undefined && connectCode(error) === 'ECONNREFUSED';
}

/** The error code of the connection attempt, under reply-from's wrapping (`cause`). */
function connectCode(error: unknown): string | undefined {
  for (let current = error as { code?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === 'ECONNREFUSED') return current.code;
  }
  return undefined;
}
