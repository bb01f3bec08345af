import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { rosterChangedTitle, SSE_EVENTS_PATH } from '@crewswap/proto/browser';
import { endSession, expiryHandlingActive, request, SESSION_FLAGS } from './client';
import { BELL_KEY } from './bell';
import { queryKeys } from './keys';
import { WISHES_KEY } from './wishes';
import { rememberChangedTrips } from '../shared/changedTrips';
import { toast } from '../shared/toast';

/** Admin spec section 9: away longer than this, the trips are refreshed on return. */
export const BACKGROUND_REFRESH_MS = 3000;
/** A focus right after a refresh does not refresh again; the guard resets after this. */
export const REFRESH_DEBOUNCE_MS = 1000;
/** After the stream fails for good (not a network blip, which EventSource retries itself). */
export const RECONNECT_AFTER_FAILURE_MS = 5000;
const EVENT_SOURCE_CLOSED = 2;

type SessionEnd = (typeof SESSION_FLAGS)[keyof typeof SESSION_FLAGS];

export interface RosterNotice {
  title: string;
  description?: string;
}

/** What a message from the stream asks of the app. */
/**
 * `rosterChanges`: a roster import changed or removed trips, in words: 'Roster updated' and '3 added,
 * 1 changed, 2 removed'; a roster fetched from the pilot's roster address, in its push's and bell's
 * words: 'Your roster changed: 1 added, 1 removed'.
 */
export type StreamAction =
  | { kind: 'ignore' }
  | { kind: 'refresh-trips'; rosterChanges?: RosterNotice; changedTripIds?: string[] }
  | { kind: 'refresh-bell'; reason?: string }
  | { kind: 'end-session'; flag: SessionEnd };

function parse(data: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The spec's reading of one message (`event` is the SSE event name): 'connected' and heartbeats
 * are ignored; text containing 'trips added' or 'trips-updated' refreshes the trips; the error
 * types end the session with the flag the login page turns into its banner; 'bell-updated' (an
 * alert was written to the bell, or alerts were read on another device) asks for the bell again.
 */
export function readStreamMessage(data: string, event = 'message'): StreamAction {
  const body = parse(data);
  const named = event === 'message' || event === 'error' ? undefined : event;
  const type = typeof body?.type === 'string' ? body.type : (named ?? data.trim());
  if (type === 'auth_failed') {
    const shutdown = body?.category === 'admin_shutdown' || body?.message === 'admin_shutdown';
    return { kind: 'end-session', flag: shutdown ? SESSION_FLAGS.shutdown : SESSION_FLAGS.expired };
  }
  if (type === 'logged_in_elsewhere') return { kind: 'end-session', flag: SESSION_FLAGS.elsewhere };
  if (type === 'bell-updated') return { kind: 'refresh-bell', ...(typeof body?.reason === 'string' ? { reason: body.reason } : {}) };
  const changes = body?.changes as { summary?: unknown; changedTripIds?: unknown; addedCount?: unknown; changedCount?: unknown; removedCount?: unknown } | undefined;
  if (typeof changes?.summary === 'string') {
    const ids = Array.isArray(changes.changedTripIds) ? changes.changedTripIds.filter((id): id is string => typeof id === 'string') : [];
    const counts = { addedCount: Number(changes.addedCount) || 0, changedCount: Number(changes.changedCount) || 0, removedCount: Number(changes.removedCount) || 0 };
    const rosterChanges = body?.channel === 'roster_subscription' ? { title: rosterChangedTitle(counts) } : { title: 'Roster updated', description: changes.summary };
    return { kind: 'refresh-trips', rosterChanges, changedTripIds: ids };
  }
  // A swap proposal or agreement changed: it moves the trips' offers and badges too.
  if (data.includes('trips added') || data.includes('trips-updated') || type === 'trips-updated' || type === 'swaps-updated') return { kind: 'refresh-trips' };
  return { kind: 'ignore' };
}

export interface LiveUpdatesDeps {
  EventSource: typeof EventSource;
  document: Document;
  window: Window;
  now: () => number;
  refreshTrips: () => void;
  /** An alert (for this reason) was written to the bell: asked again, push or no push on this device. */
  refreshBell: (reason?: string) => void;
  /** Tells the pilot what a roster import changed, at once. */
  rosterChanged?: (notice: RosterNotice, changedTripIds: string[]) => void;
  endSession: (flag: SessionEnd) => void;
  /** Asked after the stream failed for good: true while the session still holds. */
  sessionHolds: () => Promise<boolean>;
}

/**
 * The pilot's event stream (admin spec section 4, "Real-time updates"): open while the page is
 * visible, closed in the background; on return it reconnects and refreshes the trips if it was
 * away over 3 s or missed an update; a focus refreshes too unless a refresh just happened.
 * Answers the function that stops it all.
 */
export function startLiveUpdates(deps: LiveUpdatesDeps): () => void {
  const { document, window } = deps;
  let source: EventSource | undefined;
  let hiddenSince: number | undefined;
  let missedUpdate = false;
  let justRefreshed = false;
  let stopped = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, work: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work();
    }, ms);
    timers.add(timer);
  };

  const refresh = () => {
    justRefreshed = true;
    later(REFRESH_DEBOUNCE_MS, () => {
      justRefreshed = false;
    });
    deps.refreshTrips();
  };

  const close = () => {
    source?.close();
    source = undefined;
  };

  const stop = () => {
    stopped = true;
    close();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('focus', onFocus);
  };

  const handle = (data: string, event: string) => {
    const action = readStreamMessage(data, event);
    if (action.kind === 'end-session') {
      stop();
      deps.endSession(action.flag);
    } else if (action.kind === 'refresh-trips') {
      if (action.rosterChanges) deps.rosterChanged?.(action.rosterChanges, action.changedTripIds ?? []);
      // Hidden: applied on return, when the pilot can see it.
      if (document.visibilityState === 'hidden') missedUpdate = true;
      else refresh();
    } else if (action.kind === 'refresh-bell') {
      deps.refreshBell(action.reason);
    }
  };

  const open = () => {
    if (stopped || source) return;
    const stream = new deps.EventSource(SSE_EVENTS_PATH, { withCredentials: true });
    source = stream;
    // The server's own error events carry data; the browser's connection errors carry none.
    for (const name of ['message', 'trips-updated', 'auth_failed', 'logged_in_elsewhere', 'error']) {
      stream.addEventListener(name, (event) => {
        if ('data' in event && typeof event.data === 'string') return handle(event.data, name);
        if (name === 'error' && stream.readyState === EVENT_SOURCE_CLOSED) onFailure(stream);
      });
    }
  };

  // EventSource retries a dropped connection itself but gives up on a refusal (a 401, a 503).
  // A session that ended gets the request client's expiry handling; otherwise try again later.
  const onFailure = (stream: EventSource) => {
    if (source !== stream) return;
    source = undefined;
    void deps.sessionHolds().then((holds) => {
      if (holds && !stopped) later(RECONNECT_AFTER_FAILURE_MS, () => document.visibilityState === 'visible' && open());
    });
  };

  const onVisibility = () => {
    if (document.visibilityState === 'hidden') {
      hiddenSince = deps.now();
      close();
      return;
    }
    const away = hiddenSince === undefined ? 0 : deps.now() - hiddenSince;
    hiddenSince = undefined;
    open();
    if (away > BACKGROUND_REFRESH_MS || missedUpdate) {
      missedUpdate = false;
      refresh();
    }
  };

  const onFocus = () => {
    if (!justRefreshed) refresh();
  };

  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('focus', onFocus);
  if (document.visibilityState === 'visible') open();
  else hiddenSince = deps.now();
  return stop;
}

/** A message from the service worker saying it showed a push (public/sw.js). */
export function isPushMessage(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'push';
}

/** Runs the event stream while a pilot is signed in; trip changes made elsewhere refresh the list. */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  // A push this device showed is an alert in the bell: its count is asked again.
  useEffect(() => {
    const worker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!worker) return undefined;
    const onMessage = (event: MessageEvent) => {
      if (isPushMessage(event.data)) void queryClient.invalidateQueries({ queryKey: BELL_KEY });
    };
    worker.addEventListener('message', onMessage);
    return () => worker.removeEventListener('message', onMessage);
  }, [queryClient]);
  useEffect(() => {
    if (typeof EventSource === 'undefined') return undefined;
    return startLiveUpdates({
      EventSource,
      document,
      window,
      now: () => Date.now(),
      refreshTrips: () => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.trips });
        void queryClient.invalidateQueries({ queryKey: queryKeys.swaps });
        // What changed may have come with an alert: the bell's count is asked again.
        void queryClient.invalidateQueries({ queryKey: BELL_KEY });
      },
      refreshBell: (reason) => {
        void queryClient.invalidateQueries({ queryKey: BELL_KEY });
        // A wish alert is a new offer matching a wish: the wishes' counts of matching offers moved.
        // Asked now even with the Wishes dialog shut: nothing is refetched when it opens.
        if (reason === 'wish') void queryClient.invalidateQueries({ queryKey: WISHES_KEY, refetchType: 'all' });
        // A swap alert (a proposal answered, crewing's decision at the desk) moves the proposals and,
        // once crewing approves, the trips themselves: both are asked again without a reload.
        if (reason === 'proposal') {
          void queryClient.invalidateQueries({ queryKey: queryKeys.swaps });
          void queryClient.invalidateQueries({ queryKey: queryKeys.trips });
        }
      },
      rosterChanged: (notice, changedTripIds) => {
        rememberChangedTrips(changedTripIds);
        toast.info(notice.title, notice.description);
      },
      // The pilot's own logout or deletion also ends the stream: no banner for what they asked for.
      endSession: (flag) => expiryHandlingActive() && endSession(flag),
      // A 401 here runs the request client's session-expiry handling (banner, login page).
      sessionHolds: () =>
        request<unknown>('/api/pilot/current', { nullOn401: true }).then(
          (pilot) => pilot !== null,
          () => true,
        ),
    });
  }, [queryClient]);
}
