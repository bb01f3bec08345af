import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BellList, Wish } from '@crewswap/proto';
import { stubFetch } from '../../test/render';
import { BELL_KEY } from './bell';
import { connectSession, request, SESSION_FLAGS, setSessionActive, withExpirySuppressed } from './client';
import { BACKGROUND_REFRESH_MS, readStreamMessage, RECONNECT_AFTER_FAILURE_MS, REFRESH_DEBOUNCE_MS, startLiveUpdates, useLiveUpdates } from './liveUpdates';
import { queryKeys } from './keys';
import { createQueryClient } from './queryClient';
import { WISHES_KEY } from './wishes';

/** Stands in for the browser's EventSource: records what was opened and lets a test send frames. */
class FakeEventSource extends EventTarget {
  static opened: FakeEventSource[] = [];
  readonly CLOSED = 2;
  readyState = 0;
  closed = false;
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    super();
    FakeEventSource.opened.push(this);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  send(data: unknown, event = 'message') {
    this.dispatchEvent(new MessageEvent(event, { data: typeof data === 'string' ? data : JSON.stringify(data) }));
  }
  /** The server refused the stream (a 401, a 503): the browser gives up and fires a bare error. */
  refuse() {
    this.readyState = 2;
    this.dispatchEvent(new Event('error'));
  }
}

let visibility: DocumentVisibilityState = 'visible';
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

const running: Array<() => void> = [];

function start(overrides: { sessionHolds?: () => Promise<boolean> } = {}) {
  const refreshTrips = vi.fn();
  const refreshBell = vi.fn();
  const endSession = vi.fn();
  const rosterChanged = vi.fn();
  const stop = startLiveUpdates({
    rosterChanged,
    EventSource: FakeEventSource as unknown as typeof EventSource,
    document,
    window,
    now: () => Date.now(),
    refreshTrips,
    refreshBell,
    endSession,
    sessionHolds: overrides.sessionHolds ?? (async () => true),
  });
  running.push(stop);
  const open = () => FakeEventSource.opened.filter((source) => source.readyState !== 2);
  return { refreshTrips, refreshBell, endSession, rosterChanged, stop, open };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.opened = [];
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => {
  for (const stop of running.splice(0)) stop();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('reading the stream messages', () => {
  it("ignores 'connected' and heartbeats, refreshes on 'trips added' and 'trips-updated'", () => {
    expect(readStreamMessage(JSON.stringify({ type: 'connected', at: 'now' }))).toEqual({ kind: 'ignore' });
    expect(readStreamMessage(JSON.stringify({ type: 'heartbeat', at: 'now' }))).toEqual({ kind: 'ignore' });
    expect(readStreamMessage(JSON.stringify({ type: 'trips-added', message: '3 trips added' }))).toEqual({ kind: 'refresh-trips' });
    expect(readStreamMessage(JSON.stringify({ type: 'trips-updated', message: 'trips-updated' }))).toEqual({ kind: 'refresh-trips' });
    expect(readStreamMessage('trips-updated')).toEqual({ kind: 'refresh-trips' });
  });

  it("'bell-updated' (an alert written to the bell, or alerts read on another device) asks for the bell again", () => {
    expect(readStreamMessage(JSON.stringify({ type: 'bell-updated', message: 'bell-updated', reason: 'wish', at: 'now' }))).toEqual({ kind: 'refresh-bell', reason: 'wish' });
    expect(readStreamMessage(JSON.stringify({ type: 'bell-updated', message: 'bell-updated', at: 'now' }))).toEqual({ kind: 'refresh-bell' });
  });

  it('auth_failed with category or message admin_shutdown sets showAdminShutdown; other auth_failed showSessionExpired; logged_in_elsewhere its own', () => {
    expect(readStreamMessage(JSON.stringify({ type: 'auth_failed', category: 'admin_shutdown', message: 'x' }))).toEqual({ kind: 'end-session', flag: SESSION_FLAGS.shutdown });
    expect(readStreamMessage(JSON.stringify({ type: 'auth_failed', message: 'admin_shutdown' }))).toEqual({ kind: 'end-session', flag: SESSION_FLAGS.shutdown });
    expect(readStreamMessage(JSON.stringify({ type: 'auth_failed', category: 'session_expired', message: 'Session expired' }))).toEqual({ kind: 'end-session', flag: SESSION_FLAGS.expired });
    expect(readStreamMessage(JSON.stringify({ type: 'logged_in_elsewhere', message: 'elsewhere' }))).toEqual({ kind: 'end-session', flag: SESSION_FLAGS.elsewhere });
    // The same frames sent as named SSE events.
    expect(readStreamMessage(JSON.stringify({ category: 'admin_shutdown' }), 'auth_failed')).toEqual({ kind: 'end-session', flag: SESSION_FLAGS.shutdown });
    expect(readStreamMessage('{}', 'logged_in_elsewhere')).toEqual({ kind: 'end-session', flag: SESSION_FLAGS.elsewhere });
  });
});

describe('the event stream', () => {
  it('opens while the page is visible, with the session cookie, and closes when the page goes to the background', () => {
    const live = start();
    expect(live.open().map((source) => [source.url, source.init?.withCredentials])).toEqual([['/api/sse/events', true]]);
    setVisibility('hidden');
    expect(live.open()).toEqual([]);
    setVisibility('visible');
    expect(live.open()).toHaveLength(1);
    expect(FakeEventSource.opened).toHaveLength(2);
    live.stop();
    expect(live.open()).toEqual([]);
  });

  it('an update refreshes the trips list; connected and heartbeat do not', () => {
    const live = start();
    const [source] = live.open();
    source!.send({ type: 'connected', at: 'now' });
    source!.send({ type: 'heartbeat', at: 'now' });
    expect(live.refreshTrips).not.toHaveBeenCalled();
    source!.send({ type: 'trips-added', message: '2 trips added', source: 'email', processedCount: 2, duplicateCount: 0, at: 'now' });
    expect(live.refreshTrips).toHaveBeenCalledTimes(1);
    source!.send({ type: 'trips-updated', message: 'trips-updated', channel: 'admin', at: 'now' });
    expect(live.refreshTrips).toHaveBeenCalledTimes(2);
  });

  it('an alert written to the bell refreshes the bell at once, and not the trips', () => {
    const live = start();
    const [source] = live.open();
    source!.send({ type: 'bell-updated', message: 'bell-updated', reason: 'wish', at: 'now' });
    expect(live.refreshBell).toHaveBeenCalledWith('wish');
    expect(live.refreshTrips).not.toHaveBeenCalled();
  });

  it("a roster import that changed trips refreshes them and tells the pilot its summary ('3 added, 1 changed, 2 removed') at once", () => {
    const live = start();
    const [source] = live.open();
    source!.send({ type: 'trips-updated', message: 'trips-updated', channel: 'roster_email', at: 'now', changes: { addedCount: 3, changedCount: 1, removedCount: 2, summary: '3 added, 1 changed, 2 removed', changedTripIds: ['t1'] } });
    expect(live.refreshTrips).toHaveBeenCalledTimes(1);
    expect(live.rosterChanged).toHaveBeenCalledWith({ title: 'Roster updated', description: '3 added, 1 changed, 2 removed' }, ['t1']);
    source!.send({ type: 'trips-updated', message: 'trips-updated', channel: 'admin', at: 'now' });
    expect(live.rosterChanged).toHaveBeenCalledTimes(1);
  });

  it("a roster fetched from the pilot's roster address that changed trips says 'Your roster changed: 1 added, 1 removed'", () => {
    const live = start();
    const [source] = live.open();
    source!.send({ type: 'trips-updated', message: 'trips-updated', channel: 'roster_subscription', at: 'now', changes: { addedCount: 1, changedCount: 0, removedCount: 1, summary: '1 added, 0 changed, 1 removed', changedTripIds: ['t2'] } });
    expect(live.refreshTrips).toHaveBeenCalledTimes(1);
    expect(live.rosterChanged).toHaveBeenCalledWith({ title: 'Your roster changed: 1 added, 1 removed' }, ['t2']);
  });

  it('back within 3 seconds it reconnects without refreshing; away longer it refreshes', () => {
    const live = start();
    setVisibility('hidden');
    vi.advanceTimersByTime(BACKGROUND_REFRESH_MS);
    setVisibility('visible');
    expect(live.open()).toHaveLength(1);
    expect(live.refreshTrips).not.toHaveBeenCalled();
    setVisibility('hidden');
    vi.advanceTimersByTime(BACKGROUND_REFRESH_MS + 1);
    setVisibility('visible');
    expect(live.refreshTrips).toHaveBeenCalledTimes(1);
  });

  it('an update received while hidden is flagged and applied on return, however short the absence', () => {
    const live = start();
    const [source] = live.open();
    visibility = 'hidden'; // the frame arrives before the page's visibilitychange is handled
    source!.send({ type: 'trips-updated', message: 'trips-updated', channel: 'roster_email', at: 'now' });
    expect(live.refreshTrips).not.toHaveBeenCalled();
    setVisibility('hidden');
    setVisibility('visible');
    expect(live.refreshTrips).toHaveBeenCalledTimes(1);
  });

  it('a window focus refreshes, unless a refresh has just happened; the guard resets after 1 second', () => {
    const live = start();
    window.dispatchEvent(new Event('focus'));
    expect(live.refreshTrips).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('focus'));
    expect(live.refreshTrips).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(REFRESH_DEBOUNCE_MS);
    window.dispatchEvent(new Event('focus'));
    expect(live.refreshTrips).toHaveBeenCalledTimes(2);
    // Coming back after a long absence refreshes once, even though the focus follows at once.
    vi.advanceTimersByTime(REFRESH_DEBOUNCE_MS);
    setVisibility('hidden');
    vi.advanceTimersByTime(BACKGROUND_REFRESH_MS + 1);
    setVisibility('visible');
    window.dispatchEvent(new Event('focus'));
    expect(live.refreshTrips).toHaveBeenCalledTimes(3);
    live.stop();
  });

  it.each([
    [{ type: 'auth_failed', category: 'admin_shutdown', message: 'admin_shutdown' }, SESSION_FLAGS.shutdown],
    [{ type: 'auth_failed', category: 'session_expired', message: 'Session expired' }, SESSION_FLAGS.expired],
    [{ type: 'logged_in_elsewhere', message: 'You have logged in on another device.' }, SESSION_FLAGS.elsewhere],
  ])('%j closes the stream for good and ends the session with %s', (frame, flag) => {
    const live = start();
    const [source] = live.open();
    source!.send(frame);
    expect(live.endSession).toHaveBeenCalledWith(flag);
    expect(source!.closed).toBe(true);
    // Nothing reopens it: not the page coming back, not a focus.
    setVisibility('hidden');
    setVisibility('visible');
    window.dispatchEvent(new Event('focus'));
    expect(live.open()).toEqual([]);
    expect(live.refreshTrips).not.toHaveBeenCalled();
  });

  it('a refused stream is tried again later while the session holds, and not when it has ended', async () => {
    const holding = start();
    holding.open()[0]!.refuse();
    await vi.advanceTimersByTimeAsync(RECONNECT_AFTER_FAILURE_MS);
    expect(holding.open()).toHaveLength(1);
    holding.stop();

    FakeEventSource.opened = [];
    const ended = start({ sessionHolds: async () => false });
    ended.open()[0]!.refuse();
    await vi.advanceTimersByTimeAsync(RECONNECT_AFTER_FAILURE_MS * 2);
    expect(FakeEventSource.opened).toHaveLength(1);
    ended.stop();
  });
});

describe('the stream in the app', () => {
  function Live() {
    useLiveUpdates();
    return null;
  }
  function mount() {
    const queryClient = createQueryClient();
    const navigate = vi.fn();
    connectSession(queryClient, navigate);
    setSessionActive(true);
    const view = render(createElement(QueryClientProvider, { client: queryClient }, createElement(Live)));
    return { navigate, view, queryClient };
  }

  it("a 'bell-updated' message makes the bell's alerts stale, so the count on the bell is asked again; a wish alert asks for the wishes' matching offers at once", async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const { calls } = stubFetch(({ path }) => ({ body: path.endsWith('/wishes') ? [] : { entries: [], unread: 0 } }));
    try {
      const { view, queryClient } = mount();
      // Both asked once before, as the bell and a closed Wishes dialog left them.
      await queryClient.prefetchQuery({ queryKey: BELL_KEY, queryFn: () => request<BellList>('/api/notifications/bell') });
      await queryClient.prefetchQuery({ queryKey: WISHES_KEY, queryFn: () => request<Wish[]>('/api/notifications/wishes') });
      const asked = (path: string) => calls.filter((call) => call.path === path).length;
      expect(queryClient.getQueryState(BELL_KEY)?.isInvalidated).toBe(false);

      FakeEventSource.opened.at(-1)!.send({ type: 'bell-updated', message: 'bell-updated', reason: 'proposal', at: 'now' });
      await vi.advanceTimersByTimeAsync(0);
      expect(queryClient.getQueryState(BELL_KEY)?.isInvalidated).toBe(true);
      expect(asked('/api/notifications/wishes')).toBe(1);

      FakeEventSource.opened.at(-1)!.send({ type: 'bell-updated', message: 'bell-updated', reason: 'wish', at: 'now' });
      await vi.advanceTimersByTimeAsync(0);
      expect(asked('/api/notifications/wishes')).toBe(2);
      view.unmount();
    } finally {
      vi.unstubAllGlobals();
      setSessionActive(false);
    }
  });

  it("a swap alert ('proposal': crewing approved or refused) asks for the trips and the swaps again, without a reload", async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    stubFetch(() => ({ body: [] }));
    try {
      const { view, queryClient } = mount();
      await queryClient.prefetchQuery({ queryKey: queryKeys.trips, queryFn: () => request<unknown[]>('/api/trips') });
      await queryClient.prefetchQuery({ queryKey: queryKeys.agreements, queryFn: () => request<unknown[]>('/api/swaps/agreements') });
      await queryClient.prefetchQuery({ queryKey: WISHES_KEY, queryFn: () => request<Wish[]>('/api/notifications/wishes') });

      FakeEventSource.opened.at(-1)!.send({ type: 'bell-updated', message: 'bell-updated', reason: 'proposal', at: 'now' });
      await vi.advanceTimersByTimeAsync(0);
      expect(queryClient.getQueryState(queryKeys.trips)?.isInvalidated).toBe(true);
      expect(queryClient.getQueryState(queryKeys.agreements)?.isInvalidated).toBe(true);
      expect(queryClient.getQueryState(WISHES_KEY)?.isInvalidated).toBe(false);
      view.unmount();
    } finally {
      vi.unstubAllGlobals();
      setSessionActive(false);
    }
  });

  it('an ended session goes to / with the flag the login page reads; the pilot\'s own logout shows no banner', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    try {
      const first = mount();
      let finish!: () => void;
      const logout = withExpirySuppressed(() => new Promise<void>((resolve) => (finish = resolve)));
      FakeEventSource.opened.at(-1)!.send({ type: 'auth_failed', category: 'logged_out', message: 'Session expired' });
      finish();
      await logout;
      expect(sessionStorage.getItem(SESSION_FLAGS.expired)).toBeNull();
      expect(first.navigate).not.toHaveBeenCalled();
      first.view.unmount();

      const second = mount();
      FakeEventSource.opened.at(-1)!.send({ type: 'logged_in_elsewhere', message: 'You have logged in on another device.' });
      expect(sessionStorage.getItem(SESSION_FLAGS.elsewhere)).toBe('true');
      expect(second.navigate).toHaveBeenCalledWith('/');
      second.view.unmount();
    } finally {
      vi.unstubAllGlobals();
      setSessionActive(false);
    }
  });
});
