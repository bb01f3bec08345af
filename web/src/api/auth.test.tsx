import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PILOT, stubFetch } from '../../test/render';
import { useCurrentPilot } from './auth';
import { setSessionActive } from './client';
import { queryKeys } from './keys';
import { createQueryClient } from './queryClient';

afterEach(() => {
  vi.unstubAllGlobals();
  setSessionActive(false);
});

function checkPilot(queryClient: QueryClient) {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return renderHook(() => useCurrentPilot(), { wrapper });
}

const noNetwork = () => vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));

describe('the signed-in pilot', () => {
  it.each([
    ['for want of a network: losing the connection is not a logout', noNetwork],
    ['because the server is away (503)', () => stubFetch(() => ({ status: 503, body: { error: 'Service unavailable' } }))],
  ])('stays when the check fails %s', async (_why, failing) => {
    failing();
    const queryClient = createQueryClient();
    queryClient.setQueryData(queryKeys.currentPilot, PILOT);
    const { result } = checkPilot(queryClient);
    const checked = await result.current.refetch();
    expect(checked.isError).toBe(true);
    expect(checked.data).toEqual(PILOT);
    expect(queryClient.getQueryData(queryKeys.currentPilot)).toEqual(PILOT);
  });

  it('is nobody when the server says the session is not valid (401)', async () => {
    stubFetch(() => ({ status: 401, body: { error: 'Session expired' } }));
    const queryClient = createQueryClient();
    queryClient.setQueryData(queryKeys.currentPilot, PILOT);
    const { result } = checkPilot(queryClient);
    const checked = await result.current.refetch();
    expect(checked.data).toBeNull();
    expect(queryClient.getQueryData(queryKeys.currentPilot)).toBeNull();
  });

  it('is nobody when none was known and the check fails: the login page shows', async () => {
    noNetwork();
    const { result } = checkPilot(createQueryClient());
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBeNull();
  });
});
