import type { QueryClient } from '@tanstack/react-query';
import { ApiError, request, type RequestOptions } from '../../../api/client';
import { adminKeys } from './keys';

interface AdminSession {
  queryClient?: QueryClient;
  navigate?: (path: string) => void;
}

const admin: AdminSession = {};

/** Set by the console once mounted, so a 401 anywhere in it can go back to the admin login. */
export function connectAdminSession(queryClient: QueryClient, navigate: (path: string) => void): void {
  admin.queryClient = queryClient;
  admin.navigate = navigate;
}

/** Forgets everything the console fetched and shows the admin login (the pilot's cache is left alone). */
export function endAdminSession(): void {
  const client = admin.queryClient;
  if (client) {
    client.setQueryData(adminKeys.current, null);
    const keep = JSON.stringify(adminKeys.current);
    client.removeQueries({ queryKey: adminKeys.all, predicate: (query) => JSON.stringify(query.queryKey) !== keep });
  }
  admin.navigate?.('/admin/login');
}

// A 401 from the login itself means a wrong password; from the current-admin call it means "not signed in".
const NO_EXPIRY_PATHS = ['/api/admin/login', '/api/admin/current', '/api/admin/logout'];

/**
 * Every console call: the app's one request client, kept off the pilot's 401 handling; an ended
 * admin session (401) clears the console's cache and goes to /admin/login.
 */
export async function adminRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await request<T>(path, { ...options, pilotSession: false });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && !NO_EXPIRY_PATHS.some((p) => path.startsWith(p))) {
      endAdminSession();
    }
    throw error;
  }
}
