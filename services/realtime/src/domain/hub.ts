import type { SseMessage } from '@crewswap/proto';
import { frame, sessionEndedMessage } from './messages';
import type { RevocationReason } from '@crewswap/kit';

/** Where a stream's bytes go (the HTTP response); the hub knows nothing more of HTTP. */
export interface StreamSink {
  write(chunk: string): boolean;
  /** Bytes written but not yet taken by the client. */
  readonly writableLength: number;
  end(): void;
  onDrain(listener: () => void): void;
}

export interface Connection {
  readonly pilotId: string;
  readonly sessionId: string;
  readonly expiresAt?: number;
  readonly sink: StreamSink;
  /** Updates were left unsent while the client was slow: one 'trips-updated' is owed when it catches up. */
  owed: boolean;
  /** Over the limit at the last heartbeat: still over at the next one means the client is gone. */
  stalled: boolean;
  closed: boolean;
  /** Which of the heartbeat's slices this stream is in (see HubOptions.heartbeatSlices). */
  readonly slice: number;
}

export interface HubOptions {
  bufferLimitBytes: number;
  /**
   * Streams are dealt round-robin into this many slices, and each heartbeat tick serves one
   * slice: with every stream's heartbeat in the same tick, thousands of frames left at once and
   * an event behind them (in this process, the gateway and the browser) waited for all of them.
   */
  heartbeatSlices?: number;
  now?: () => number;
}

/**
 * This process's open streams, by pilot and by session. Every replica receives every event and
 * delivers it to the streams it holds. A client that does not read has at most `bufferLimitBytes`
 * waiting: past that, its updates are folded into one 'trips-updated' owed for when it drains,
 * and one still not drained a heartbeat later is closed (it reconnects when it can).
 */
export function createHub(options: HubOptions) {
  const now = options.now ?? Date.now;
  const byPilot = new Map<string, Set<Connection>>();
  const bySession = new Map<string, Set<Connection>>();
  let count = 0;
  let opened = 0;
  // Each slice's streams apart, so a tick touches its own slice only, not every stream.
  const slices = Array.from({ length: options.heartbeatSlices ?? 1 }, () => new Set<Connection>());

  function index(map: Map<string, Set<Connection>>, key: string, connection: Connection, add: boolean): void {
    let set = map.get(key);
    if (add) {
      if (!set) map.set(key, (set = new Set()));
      set.add(connection);
    } else if (set) {
      set.delete(connection);
      if (set.size === 0) map.delete(key);
    }
  }

  /** `text` is the message framed, once for all the streams it goes to. */
  function send(connection: Connection, message: SseMessage, text = frame(message)): void {
    if (connection.closed) return;
    if (connection.sink.writableLength > options.bufferLimitBytes) {
      if (message.type === 'trips-updated' || message.type === 'trips-added') connection.owed = true;
      return;
    }
    connection.sink.write(text);
  }

  function remove(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    count -= 1;
    index(byPilot, connection.pilotId, connection, false);
    index(bySession, connection.sessionId, connection, false);
    slices[connection.slice]!.delete(connection);
  }

  /** Sends a last frame (whatever is queued, it must arrive) and closes. */
  function finish(connection: Connection, last?: SseMessage): void {
    if (connection.closed) return;
    if (last) connection.sink.write(frame(last));
    remove(connection);
    connection.sink.end();
  }

  return {
    open(session: { pilotId: string; sessionId: string; expiresAt?: number }, sink: StreamSink): Connection {
      const connection: Connection = { ...session, sink, owed: false, stalled: false, closed: false, slice: opened++ % slices.length };
      index(byPilot, session.pilotId, connection, true);
      index(bySession, session.sessionId, connection, true);
      slices[connection.slice]!.add(connection);
      count += 1;
      sink.onDrain(() => {
        if (!connection.owed || connection.closed) return;
        connection.owed = false;
        send(connection, { type: 'trips-updated', message: 'trips-updated', channel: 'system', at: new Date(now()).toISOString() });
      });
      send(connection, { type: 'connected', at: new Date(now()).toISOString() });
      return connection;
    },

    /** The client went away. */
    close: remove,

    /** To every stream of the pilot, except those of the session that made the change. */
    deliver(pilotId: string, message: SseMessage, exceptSessionId?: string): number {
      let delivered = 0;
      const text = frame(message);
      for (const connection of byPilot.get(pilotId) ?? []) {
        if (connection.sessionId === exceptSessionId) continue;
        send(connection, message, text);
        delivered += 1;
      }
      return delivered;
    },

    /** To every stream this process holds. */
    broadcast(message: SseMessage): void {
      const text = frame(message);
      for (const set of byPilot.values()) for (const connection of set) send(connection, message, text);
    },

    /** The session ended: each of its streams gets the spec's event for the reason, then closes. */
    endSession(sessionId: string, reason: RevocationReason | undefined): number {
      const connections = [...(bySession.get(sessionId) ?? [])];
      for (const connection of connections) finish(connection, sessionEndedMessage(reason));
      return connections.length;
    },

    /**
     * A heartbeat to each stream of one slice (all streams without a slice): ends those whose
     * token expired and those stalled. Each slice's turn comes every 25 s.
     */
    heartbeat(slice?: number): void {
      const at = now();
      const message: SseMessage = { type: 'heartbeat', at: new Date(at).toISOString() };
      const text = frame(message);
      for (const set of slice === undefined ? slices : [slices[slice]!]) {
        for (const connection of [...set]) {
          if (connection.expiresAt !== undefined && connection.expiresAt <= at) {
            finish(connection, sessionEndedMessage('timeout'));
            continue;
          }
          const over = connection.sink.writableLength > options.bufferLimitBytes;
          if (over && connection.stalled) {
            finish(connection);
            continue;
          }
          connection.stalled = over;
          send(connection, message, text);
        }
      }
    },

    /** Shutting down: streams end without an error frame, so clients reconnect to another replica. */
    closeAll(): void {
      for (const set of [...byPilot.values()]) for (const connection of [...set]) finish(connection);
    },

    size: () => count,
  };
}
export type Hub = ReturnType<typeof createHub>;
