import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { createQueryClient } from '../src/api/queryClient';
import { PILOT, stubFetch } from './render';

/** The browser's EventSource, as far as the app uses it: a test sends the server's frames. */
class FakeEventSource extends EventTarget {
  static opened: FakeEventSource[] = [];
  readyState = 1;
  constructor(readonly url: string) {
    super();
    FakeEventSource.opened.push(this);
  }
  close() {
    this.readyState = 2;
  }
  send(data: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  window.history.pushState({}, '', '/');
});

async function signedInAt(path: string) {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  let signedIn = true;
  stubFetch((call) => {
    if (call.path === '/api/pilot/current') return signedIn ? { body: PILOT } : { status: 401, body: { error: 'Not signed in' } };
    if (call.path.startsWith('/api/trips')) return signedIn ? { body: [] } : { status: 401, body: { error: 'Not signed in' } };
    return undefined;
  });
  window.history.pushState({}, '', path);
  render(<App queryClient={createQueryClient()} />);
  await screen.findByText('No trips yet');
  // The server ends the session before it says so on the stream.
  return { stream: FakeEventSource.opened.at(-1)!, endSession: () => (signedIn = false) };
}

describe('session banners', () => {
  it("an auth_failed on the event stream that is not admin_shutdown shows 'Session Expired' on the login page at /", async () => {
    const { stream, endSession } = await signedInAt('/upload-roster');
    endSession();
    act(() => stream.send({ type: 'auth_failed', category: 'logged_out', message: 'Session expired' }));
    expect(await screen.findByText('Session Expired')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/');
  });

  it("an auth_failed with category admin_shutdown shows 'System Temporarily Unavailable', not 'Session Expired'", async () => {
    const { stream, endSession } = await signedInAt('/');
    endSession();
    act(() => stream.send({ type: 'auth_failed', category: 'admin_shutdown', message: 'admin_shutdown' }));
    expect(await screen.findByText('System Temporarily Unavailable')).toBeInTheDocument();
    expect(screen.queryByText('Session Expired')).not.toBeInTheDocument();
  });
});
