import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/App';
import { SIGNED_IN_KEY } from '../src/api/client';
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
  localStorage.clear();
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

  it("an app reopened after its session ended elsewhere shows 'Session Expired' at /; a first visit shows no banner", async () => {
    // A fresh page: the app's modules load again and read what the last visit left.
    const reopen = async () => {
      vi.resetModules();
      const fresh = { app: await import('../src/App'), client: await import('../src/api/queryClient') };
      return render(<fresh.app.App queryClient={fresh.client.createQueryClient()} />);
    };
    stubFetch((call) => (call.path === '/api/pilot/current' ? { status: 401, body: { error: 'Session expired' } } : undefined));
    localStorage.setItem(SIGNED_IN_KEY, 'true');
    const first = await reopen();
    expect(await screen.findByText('Session Expired')).toBeInTheDocument();
    expect(localStorage.getItem(SIGNED_IN_KEY)).toBeNull();
    first.unmount();
    sessionStorage.clear();

    await reopen();
    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByText('Session Expired')).not.toBeInTheDocument();
  });
});
