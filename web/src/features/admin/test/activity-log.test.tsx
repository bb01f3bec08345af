import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminActivityEntry } from '@crewswap/proto';
import { renderWithApp, stubFetch } from '../../../../test/render';
import { ActivityLog } from '../panels/admins/ActivityLog';
import { MASTER, NEW_ADMIN, OPS } from './fixtures';

afterEach(() => vi.unstubAllGlobals());

const ENTRY: AdminActivityEntry = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
  adminId: MASTER.id,
  adminName: MASTER.name,
  adminEmail: MASTER.email,
  action: 'PUT /api/admin/settings/:key',
  detail: 'key=swap_search_days',
  ipAddress: '10.0.0.7',
  at: '2026-11-23T10:15:00.000Z',
};

describe('Admin Activity Logs', () => {
  it('shows a master admin who did what, when, from the activity log', async () => {
    const { calls } = stubFetch((call) => (call.path === '/api/admin/activity-log' ? { body: [ENTRY] } : undefined));
    renderWithApp(<ActivityLog me={MASTER} admins={[NEW_ADMIN]} />);
    expect(await screen.findByText('PUT /api/admin/settings/:key')).toBeInTheDocument();
    expect(screen.getByText('key=swap_search_days')).toBeInTheDocument();
    expect(screen.getByText(MASTER.name)).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toContain('/api/admin/activity-log');
  });

  it('shows other admins the last sign-ins only, without asking for the log', async () => {
    const { calls } = stubFetch(() => undefined);
    renderWithApp(<ActivityLog me={OPS} admins={[NEW_ADMIN]} />);
    expect(await screen.findByText(NEW_ADMIN.name)).toBeInTheDocument();
    expect(calls.map((call) => call.path)).not.toContain('/api/admin/activity-log');
  });
});
