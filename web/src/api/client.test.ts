import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/render';
import { ApiError, connectSession, request, setSessionActive } from './client';
import { queryKeys } from './keys';
import { NEEDS_CONNECTION, PROBE_MS } from './online';
import { createQueryClient } from './queryClient';

afterEach(() => {
  vi.unstubAllGlobals();
  setSessionActive(false);
  sessionStorage.clear();
});

describe('shared request behaviour', () => {
  it('sends credentials and JSON bodies', async () => {
    const { fetchMock } = stubFetch(() => ({ body: { ok: true } }));
    await request('/api/trips', { method: 'POST', body: { route: 'JFK' } });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.credentials).toBe('include');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"route":"JFK"}');
  });

  it('errors carry the status, the server message, its title and the parsed body', async () => {
    stubFetch(() => ({ status: 400, body: { error: 'Employee ID must be exactly 6 digits.', title: 'Invalid Employee ID' } }));
    const error = await request('/api/auth/register', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'Employee ID must be exactly 6 digits.', title: 'Invalid Employee ID' });
    expect((error as ApiError).body).toEqual({ error: 'Employee ID must be exactly 6 digits.', title: 'Invalid Employee ID' });
  });

  it('a 401 while signed in clears the cache, flags Session Expired and goes to /', async () => {
    stubFetch(() => ({ status: 401, body: { error: 'Session expired' } }));
    const queryClient = createQueryClient();
    queryClient.setQueryData(queryKeys.trips, [{ id: 'x' }]);
    const navigate = vi.fn();
    connectSession(queryClient, navigate);
    setSessionActive(true);
    await expect(request('/api/trips')).rejects.toThrow('Session expired');
    expect(queryClient.getQueryData(queryKeys.trips)).toBeUndefined();
    expect(queryClient.getQueryData(queryKeys.currentPilot)).toBeNull();
    expect(sessionStorage.getItem('showSessionExpired')).toBe('true');
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('a 401 for a session an administrator shut down flags System Temporarily Unavailable, not Session Expired', async () => {
    stubFetch(() => ({ status: 401, body: { error: 'Session expired', sessionEnded: 'admin_shutdown' } }));
    connectSession(createQueryClient(), vi.fn());
    setSessionActive(true);
    await expect(request('/api/trips')).rejects.toThrow('Session expired');
    expect(sessionStorage.getItem('showAdminShutdown')).toBe('true');
    expect(sessionStorage.getItem('showSessionExpired')).toBeNull();
  });

  it('a 401 for a session ended by a login elsewhere flags Logged In Elsewhere', async () => {
    stubFetch(() => ({ status: 401, body: { error: 'Session expired', sessionEnded: 'logged_in_elsewhere' } }));
    connectSession(createQueryClient(), vi.fn());
    setSessionActive(true);
    await expect(request('/api/trips')).rejects.toThrow('Session expired');
    expect(sessionStorage.getItem('showLoggedInElsewhere')).toBe('true');
  });

  it('a 401 from login or forgot-password is just a refusal', async () => {
    stubFetch(() => ({ status: 401, body: { error: 'Invalid email or password.', remainingAttempts: 4 } }));
    const navigate = vi.fn();
    connectSession(createQueryClient(), navigate);
    setSessionActive(true);
    await expect(request('/api/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 401 });
    await expect(request('/api/auth/forgot-password', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 401 });
    expect(navigate).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('showSessionExpired')).toBeNull();
  });

  it('the query defaults: no retries, no refetching, never stale', () => {
    const options = createQueryClient().getDefaultOptions().queries!;
    expect(options).toMatchObject({
      retry: false,
      refetchOnWindowFocus: false,
      refetchOnMount: false,
      refetchOnReconnect: false,
      refetchInterval: false,
      staleTime: Infinity,
      gcTime: Infinity,
    });
  });
});

describe('a call that gets no answer at all', () => {
  afterEach(() => vi.useRealTimers());

  it('puts the app offline, whatever the browser says, and says a connection is needed', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(onlineManager.isOnline()).toBe(true);
    await expect(request('/api/trips')).rejects.toThrow(NEEDS_CONNECTION);
    // Once the server has not answered the check made at once either.
    await vi.waitFor(() => expect(onlineManager.isOnline()).toBe(false));
  });

  it('one dropped connection on a network that works is not offline', async () => {
    const fetchMock = vi.fn(async (): Promise<Response> => Promise.reject(new TypeError('Failed to fetch')));
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValue(new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(request('/api/trips')).rejects.toThrow(NEEDS_CONNECTION);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    await Promise.resolve();
    expect(onlineManager.isOnline()).toBe(true);
  });

  it('asks the server again every PROBE_MS and is back online at its first answer', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(async (_path: string): Promise<Response> => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', fetchMock);
    await expect(request('/api/trips')).rejects.toThrow(NEEDS_CONNECTION);
    await vi.advanceTimersByTimeAsync(0);
    expect(onlineManager.isOnline()).toBe(false);
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(onlineManager.isOnline()).toBe(false);
    fetchMock.mockImplementation(async () => new Response('{}', { status: 200 }));
    await vi.advanceTimersByTimeAsync(PROBE_MS);
    expect(fetchMock.mock.calls.map(([path]) => path)).toEqual(['/api/trips', '/api/auth/config', '/api/auth/config', '/api/auth/config']);
    expect(onlineManager.isOnline()).toBe(true);
    // Back online, the probe is done.
    await vi.advanceTimersByTimeAsync(3 * PROBE_MS);
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it('an aborted call is not a lost network', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new DOMException('The operation was aborted.', 'AbortError'))));
    await expect(request('/api/trips')).rejects.toThrow('aborted');
    expect(onlineManager.isOnline()).toBe(true);
  });
});
