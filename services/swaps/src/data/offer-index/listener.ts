import { randomUUID } from 'node:crypto';
import type { Db } from '@crewswap/kit';
import type { Logger } from 'pino';
import pg from 'pg';

/** The channel the offers table's triggers announce changed trip ids on (migration 'offer-notify'). */
export const OFFERS_CHANNEL = 'swaps_offers';
/** What the truncate trigger sends instead of ids: every offer is gone. */
export const RELOAD_ALL = '*';
/** The prefix of catchUp()'s own notices. */
const BARRIER = 'barrier:';
const BARRIER_TIMEOUT_MS = 5000;
/** How often the listener proves to itself that notices still reach it. */
const HEARTBEAT_MS = 30_000;
/**
 * How long to wait before listening again after the listening connection was lost: doubling from
 * the first to the last while Postgres stays away, so a long outage is not asked every moment, yet
 * short enough that the index answers again within a few seconds of Postgres's return.
 */
const RECONNECT_MS = { first: 250, last: 2000 };
/** A connect that gets no answer (a partition, not a refusal) is given up after this and tried again. */
const CONNECT_TIMEOUT_MS = 5000;

/** What the listener keeps in step with the table: the offer index's store. */
export interface Follower {
  reloadAll(): Promise<void>;
  reread(tripIds: string[]): Promise<void>;
  size(): number;
}

export interface Listener {
  /** Whether the follower is in step with the table (listening, loaded, notices arriving). */
  ready(): boolean;
  /** Settles once every change committed before the call is applied (at once when not ready). */
  catchUp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Keeps a follower in step with the offers table: listens to the table's notices and has the
 * follower re-read the rows they name, one pass at a time. Listening starts before the first load,
 * so nothing committed between the two is missed. While the listening connection is down, or a
 * read failed, or the notices stop arriving, it is not ready, and tries again with a growing wait
 * (RECONNECT_MS); once it listens again the follower loads afresh.
 */
export async function startListener(deps: {
  db: Db;
  connectionString: string;
  log: Logger;
  heartbeatMs?: number;
  follower: Follower;
  /** The notices' channel and what the logs call the follower (the offer index's by default). */
  channel?: string;
  name?: string;
}): Promise<Listener> {
  const { db, log, follower } = deps;
  const channel = deps.channel ?? OFFERS_CHANNEL;
  const name = deps.name ?? 'offer index';
  let ready = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let pending = new Set<string>();
  let refreshing: Promise<boolean> | undefined;
  let reloadWanted = false;
  /** catchUp() calls waiting for their barrier notice, by token. */
  const barriers = new Map<string, () => void>();

  /**
   * Applies every notice received so far; one pass at a time, so rows are never read out of order.
   * Settles true when the follower is in step with the table, false when a read failed.
   */
  function refresh(): Promise<boolean> {
    // Cleared only once settled (a promise callback runs after this assignment, even when the
    // drain finds nothing to do).
    refreshing ??= drain().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  async function drain(): Promise<boolean> {
    try {
      while (reloadWanted || pending.size > 0) {
        const ids = [...pending];
        pending = new Set();
        if (reloadWanted) {
          reloadWanted = false;
          await follower.reloadAll();
        } else {
          await follower.reread(ids);
        }
      }
      return true;
    } catch (error) {
      // The rows could not be read (the database away): answers come from Postgres until the
      // index listens again and loads afresh.
      ready = false;
      log.warn({ err: error }, `${name} could not refresh; Find swaps asks Postgres until it reloads`);
      reconnectLater();
      return false;
    }
  }

  async function listen(): Promise<void> {
    // keepAlive: a connection cut without a word (a partition) ends instead of listening to nothing.
    const client = new pg.Client({ connectionString: deps.connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    client.on('error', (error) => {
      log.warn({ err: error }, `${name} lost its listening connection; Find swaps asks Postgres until it is back`);
    });
    client.on('end', () => {
      if (listener !== client) return;
      listener = undefined;
      ready = false;
      reconnectLater();
    });
    client.on('notification', (message) => {
      if (message.channel !== channel) return;
      const payload = message.payload ?? RELOAD_ALL;
      if (payload.startsWith(BARRIER)) {
        const passed = barriers.get(payload.slice(BARRIER.length));
        // Every notice sent before the barrier has arrived: once they are applied, it is passed.
        if (passed) void refresh().then(passed);
        return;
      }
      if (payload === RELOAD_ALL) reloadWanted = true;
      else for (const id of payload.split(',')) pending.add(id);
      void refresh();
    });
    await client.connect();
    listener = client;
    // Listening first: a change committed while the table loads is announced, and read again.
    await client.query(`LISTEN ${channel}`);
    reloadWanted = true;
    pending.clear();
    if ((await refresh()) && listener === client && !closed) {
      ready = true;
      failedTries = 0;
      log.info({ held: follower.size() }, `${name} loaded`);
    }
  }

  let reconnectTimer: NodeJS.Timeout | undefined;
  /** Tries to listen and load since the index was last in step: the next wait grows with them. */
  let failedTries = 0;
  function reconnectLater(): void {
    if (closed || reconnectTimer) return;
    const waitMs = Math.min(RECONNECT_MS.last, RECONNECT_MS.first * 2 ** failedTries);
    failedTries += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      const old = listener;
      listener = undefined;
      void old?.end().catch(() => undefined);
      listen().catch((error: unknown) => {
        log.warn({ err: error }, `${name} could not listen yet`);
        reconnectLater();
      });
    }, waitMs);
    reconnectTimer.unref();
  }

  /** Sends a barrier notice and waits for it to come back with every notice before it applied. */
  async function passBarrier(timeoutMs = BARRIER_TIMEOUT_MS): Promise<'passed' | 'lost' | 'not listening'> {
    if (!ready) return 'not listening';
    const token = randomUUID();
    const passed = new Promise<'passed'>((resolve) => barriers.set(token, () => resolve('passed')));
    try {
      await db.raw('SELECT pg_notify(?, ?)', [channel, `${BARRIER}${token}`]);
      let timer: NodeJS.Timeout | undefined;
      const lost = new Promise<'lost'>((resolve) => {
        timer = setTimeout(() => resolve('lost'), timeoutMs);
        timer.unref();
      });
      const outcome = await Promise.race([passed, lost]);
      clearTimeout(timer);
      return outcome;
    } catch {
      // The database is away: the request path finds out on its own.
      return 'not listening';
    } finally {
      barriers.delete(token);
    }
  }

  // A connection that listens but hears nothing (a transaction pooler between us and Postgres,
  // a half-open socket) would leave the index stale without an error: a barrier every
  // HEARTBEAT_MS proves the notices arrive, and one that does not come back stops the index
  // answering until it has listened again and reloaded.
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_MS;
  const heartbeat = setInterval(() => {
    void passBarrier(Math.min(BARRIER_TIMEOUT_MS, heartbeatMs)).then((outcome) => {
      if (outcome !== 'lost' || closed) return;
      ready = false;
      log.warn(`${name} is not hearing its notices; Find swaps asks Postgres until it listens again`);
      reconnectLater();
    });
  }, heartbeatMs);
  heartbeat.unref();

  try {
    await listen();
  } catch (error) {
    // Find swaps still works from Postgres; the listener keeps trying in the background.
    log.warn({ err: error }, `${name} not loaded at start; Find swaps asks Postgres until it is`);
    reconnectLater();
  }

  return {
    ready: () => ready,
    async catchUp() {
      await passBarrier();
    },
    async close() {
      closed = true;
      ready = false;
      clearInterval(heartbeat);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      await refreshing;
    },
  };
}
