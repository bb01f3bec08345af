import type { QueryClient } from '@tanstack/react-query';
import type { ErrorBody } from '@crewswap/proto';
import { queryKeys } from './keys';
import { NEEDS_CONNECTION, noteUnreachable } from './online';

/** A refused call: the status, the server's message (`error`), its `title` and the parsed body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly title: string | undefined,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const SESSION_FLAGS = {
  expired: 'showSessionExpired',
  elsewhere: 'showLoggedInElsewhere',
  shutdown: 'showAdminShutdown',
} as const;

// A 401 from these means "wrong password" or "no such account", never "your session ended".
const NO_EXPIRY_PATHS = ['/api/auth/login', '/api/auth/forgot-password'];

interface SessionState {
  /** True while the app treats the pilot as logged in; only then does a 401 mean expiry. */
  active: boolean;
  /** Set around calls that end the session on purpose (logout, profile deletion). */
  suppressed: boolean;
  queryClient?: QueryClient;
  navigate?: (path: string) => void;
}

/**
 * Whether the pilot was signed in, kept across reloads: an app reopened after its session ended
 * elsewhere (a login on another device, a timeout while closed) then says so, as a 401 on a
 * running app does, instead of showing the login page without a word.
 */
export const SIGNED_IN_KEY = 'crewswap-signed-in';

function wasSignedIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_KEY) === 'true';
  } catch {
    return false;
  }
}

const session: SessionState = { active: wasSignedIn(), suppressed: false };

export function connectSession(queryClient: QueryClient, navigate: (path: string) => void): void {
  session.queryClient = queryClient;
  session.navigate = navigate;
}

export function setSessionActive(active: boolean): void {
  session.active = active;
  try {
    if (active) localStorage.setItem(SIGNED_IN_KEY, 'true');
    else localStorage.removeItem(SIGNED_IN_KEY);
  } catch {
    // Storage refused (private mode): the flag lives for this page only.
  }
}

/** Whether an ended session is news to the app (not a logout or deletion it is making itself). */
export function expiryHandlingActive(): boolean {
  return session.active && !session.suppressed;
}

export async function withExpirySuppressed<T>(work: () => Promise<T>): Promise<T> {
  session.suppressed = true;
  try {
    return await work();
  } finally {
    session.suppressed = false;
  }
}

/** Ends the pilot's view of the app: cache cleared, the login page shown at `/`. */
export function endSession(flag?: (typeof SESSION_FLAGS)[keyof typeof SESSION_FLAGS]): void {
  setSessionActive(false);
  if (flag) sessionStorage.setItem(flag, 'true');
  const client = session.queryClient;
  if (client) {
    // "No pilot" first, so the mounted page switches to login at once; then drop everything else.
    // (clear() would also drop the current-pilot query under its mounted observer.)
    client.setQueryData(queryKeys.currentPilot, null);
    const keep = JSON.stringify(queryKeys.currentPilot);
    client.removeQueries({ predicate: (query) => JSON.stringify(query.queryKey) !== keep });
    // The pilot's changes still waiting to be sent go too: nothing of a pilot outlives the session.
    client.getMutationCache().clear();
  }
  session.navigate?.('/');
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Answer null instead of failing on 401 (the current-pilot call decides access this way). */
  nullOn401?: boolean;
  /**
   * False for the admin console's calls: an admin's 401 says nothing about the pilot's session,
   * so it must not end it (the console sends its own 401s to /admin/login).
   */
  pilotSession?: boolean;
  signal?: AbortSignal;
  /** Sent as `Idempotency-Key`: a change sent again with it is done once (offlineQueue.ts). */
  idempotencyKey?: string;
}

/** The one way the app talks to the server. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal } = options;
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'include',
      headers,
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    // fetch rejects with a TypeError when no answer came (an abort is a DOMException): no network.
    if (!(error instanceof TypeError)) throw error;
    noteUnreachable();
    throw new Error(NEEDS_CONNECTION, { cause: error });
  }
  const parsed = await readBody(response);
  if (response.ok) return parsed as T;

  if (response.status === 401) {
    const expiryApplies = options.pilotSession !== false && !NO_EXPIRY_PATHS.some((p) => path.startsWith(p));
    if (expiryApplies && session.active && !session.suppressed) {
      endSession(endedFlag(parsed));
      throw new ApiError(401, 'Session expired', undefined, parsed);
    }
    if (options.nullOn401) return null as T;
  }
  throw errorFrom(response, parsed);
}

/** The login page's banner for a 401: the server says why the session ended, where it knows. */
function endedFlag(body: unknown): (typeof SESSION_FLAGS)[keyof typeof SESSION_FLAGS] {
  const reason = (body as Partial<ErrorBody> | undefined)?.sessionEnded;
  if (reason === 'admin_shutdown') return SESSION_FLAGS.shutdown;
  if (reason === 'logged_in_elsewhere') return SESSION_FLAGS.elsewhere;
  return SESSION_FLAGS.expired;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorFrom(response: Response, body: unknown): ApiError {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message =
    typeof record.error === 'string' && record.error !== ''
      ? record.error
      : response.statusText || `HTTP ${response.status}`;
  const title = typeof record.title === 'string' ? record.title : undefined;
  return new ApiError(response.status, message, title, body);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
