import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminAnalytics, AdminPilot } from '@crewswap/proto';
import { PILOT, renderWithApp, stubFetch } from '../../../../test/render';
import { AdminDialog } from '../panels/admins/AdminDialog';
import { SetPasswordDialog } from '../panels/admins/SetPasswordDialog';
import { IataCodeDialog } from '../panels/airports/IataCodeDialog';
import AnalyticsPanel from '../panels/analytics/AnalyticsPanel';
import { analyticsRows } from '../panels/analytics/analyticsRows';
import { EditPilotDialog } from '../panels/pilots/EditPilotDialog';
import { checkPilotPassword } from '../panels/pilots/ResetPasswordDialog';
import { EmergencyCard } from '../panels/security/EmergencyCard';
import SystemSettingsPanel from '../panels/settings/SystemSettingsPanel';
import { MASTER, NEW_ADMIN, OPS, SETTINGS } from './fixtures';

afterEach(() => vi.unstubAllGlobals());

const ADMIN_PILOT: AdminPilot = { ...PILOT, tripCount: 2 };

describe('System Settings', () => {
  function renderSettings() {
    const stub = stubFetch((call) => {
      if (call.path === '/api/admin/settings' && call.method === 'GET') return { body: SETTINGS };
      if (call.path === '/api/admin/current') return { body: MASTER };
      if (call.method === 'PUT') return { body: { key: 'swap_search_days', value: String((call.body as { value: string }).value), updated_at: 'now' } };
      return undefined;
    });
    renderWithApp(<SystemSettingsPanel />);
    return stub;
  }

  it("refuses a find-swaps range of 31 with 'Cannot exceed 30 days' and sends nothing", async () => {
    const { calls } = renderSettings();
    const range = await screen.findByLabelText('Max Find Swaps Range (days)');
    fireEvent.change(range, { target: { value: '31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Cannot exceed 30 days')).toBeInTheDocument();
    fireEvent.change(range, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Must be at least 1 day')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });

  it('checks the URL, the emails and the user guide path in the spec words', async () => {
    renderSettings();
    fireEvent.change(await screen.findByLabelText('Interbids URL'), { target: { value: 'not a url' } });
    fireEvent.change(screen.getByLabelText('Roster Upload Email'), { target: { value: 'nobody' } });
    fireEvent.change(screen.getByLabelText('User Guide Path'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Please enter a valid URL')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('User guide path is required')).toBeInTheDocument();
  });

  it('saves only the settings that changed', async () => {
    const { calls } = renderSettings();
    fireEvent.change(await screen.findByLabelText('Max Find Swaps Range (days)'), { target: { value: '7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Settings updated')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([{ method: 'PUT', path: '/api/admin/settings/swap_search_days', body: { value: '7' } }]);
  });
});

describe('admin form', () => {
  it('needs a name and an email', async () => {
    const { calls } = stubFetch(() => undefined);
    renderWithApp(<AdminDialog me={MASTER} admin={null} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add Admin' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('hides the permission checkboxes once Master Admin is ticked, and only a master may tick it', async () => {
    stubFetch(() => undefined);
    const { unmount } = renderWithApp(<AdminDialog me={MASTER} admin={null} onClose={() => {}} />);
    expect(await screen.findByLabelText('Manage Pilots')).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('Master Admin (full access)'));
    await waitFor(() => expect(screen.queryByLabelText('Manage Pilots')).not.toBeInTheDocument());
    unmount();
    renderWithApp(<AdminDialog me={{ ...OPS, permissions: ['manage_admins'] }} admin={null} onClose={() => {}} />);
    expect(await screen.findByLabelText('Master Admin (full access)')).toBeDisabled();
  });

  it('sends the chosen permissions', async () => {
    const { calls } = stubFetch((call) => (call.method === 'POST' ? { status: 201, body: NEW_ADMIN } : undefined));
    renderWithApp(<AdminDialog me={MASTER} admin={null} onClose={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Nia New' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nia@crewswap.local' } });
    fireEvent.click(screen.getByLabelText('Manage Pilots'));
    fireEvent.click(screen.getByLabelText('View Analytics'));
    fireEvent.click(screen.getByRole('button', { name: 'Add Admin' }));
    expect(await screen.findByText('Admin Added')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Nia New',
      email: 'nia@crewswap.local',
      phone: null,
      jobTitle: null,
      isMasterAdmin: false,
      permissions: ['manage_pilots', 'view_analytics'],
    });
  });

  it("setting a password: 'Passwords do not match' and 'Password must be at least 6 characters long'", async () => {
    const { calls } = stubFetch(() => undefined);
    renderWithApp(<SetPasswordDialog admin={NEW_ADMIN} onClose={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'abc' } });
    fireEvent.change(screen.getByLabelText('Confirm Password'), { target: { value: 'abd' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByText('Password must be at least 6 characters long')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});

describe('IATA code form', () => {
  it("uppercases and asks for exactly 3 letters: 'IATA code must be exactly 3 letters'", async () => {
    const { calls } = stubFetch(() => undefined);
    renderWithApp(<IataCodeDialog code={null} onClose={() => {}} />);
    const iata = await screen.findByLabelText('IATA Code');
    fireEvent.change(iata, { target: { value: 'j1' } });
    expect(iata).toHaveValue('J1');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('IATA code must be exactly 3 letters')).toBeInTheDocument();
    fireEvent.change(iata, { target: { value: '' } });
    expect(await screen.findByText('IATA code is required')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});

describe('pilot forms', () => {
  it('refuses a phone starting with +0 and blank required fields', async () => {
    const { calls } = stubFetch(() => undefined);
    renderWithApp(<EditPilotDialog pilot={ADMIN_PILOT} onClose={() => {}} />);
    const phone = await screen.findByLabelText('Phone');
    fireEvent.change(phone, { target: { value: '+0 7700 900123' } });
    expect(phone).toHaveValue('+07700900123');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(/Phone number cannot start with \+0\. Please enter the number with the correct country code/)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('First Name'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Please fill in all required fields.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("sets the pilot's own Find Swaps range (searchDayRange), and clears it back to the default", async () => {
    const { calls } = stubFetch((call) => (call.method === 'PATCH' ? { body: { ...ADMIN_PILOT, searchDayRange: 10 } } : undefined));
    const view = renderWithApp(<EditPilotDialog pilot={ADMIN_PILOT} onClose={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Find Swaps range (days)'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')?.body).toMatchObject({ searchDayRange: 10 }));
    view.unmount();

    const second = stubFetch((call) => (call.method === 'PATCH' ? { body: ADMIN_PILOT } : undefined));
    renderWithApp(<EditPilotDialog pilot={{ ...ADMIN_PILOT, searchDayRange: 10 }} onClose={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Find Swaps range (days)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(second.calls.find((call) => call.method === 'PATCH')?.body).toMatchObject({ searchDayRange: null }));
  });

  it("tells 'Failed to update pilot: HTTP {status}: {text}'", async () => {
    stubFetch((call) => (call.method === 'PATCH' ? { status: 409, body: { error: 'Employee ID already registered' } } : undefined));
    renderWithApp(<EditPilotDialog pilot={ADMIN_PILOT} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update pilot: HTTP 409: Employee ID already registered')).toBeInTheDocument();
  });

  it('the password reset checks both fields, the match and the length', () => {
    expect(checkPilotPassword('', 'x')).toBe('Please fill in both password fields.');
    expect(checkPilotPassword('abcdef', 'abcdeg')).toBe('The passwords do not match. Please try again.');
    expect(checkPilotPassword('abc', 'abc')).toBe('Password must be at least 6 characters long.');
    expect(checkPilotPassword('abcdef', 'abcdef')).toBeNull();
  });
});

describe('emergency shutdown', () => {
  it("needs EMERGENCY typed exactly: 'Please type EMERGENCY to confirm'", async () => {
    const { calls } = stubFetch((call) => {
      if (call.path === '/api/admin/emergency-status') return { body: { isShutdown: false } };
      if (call.path === '/api/admin/emergency-shutdown') return { body: { message: 'Emergency shutdown activated.', sessionsTerminated: 4 } };
      return undefined;
    });
    renderWithApp(<EmergencyCard />);
    await screen.findByText('Normal operations.');
    fireEvent.click(screen.getByRole('button', { name: 'Emergency Shutdown' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Emergency Shutdown' });
    fireEvent.change(within(dialog).getByLabelText('Type EMERGENCY to confirm'), { target: { value: 'emergency' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Activate Shutdown' }));
    expect(await within(dialog).findByText('Please type EMERGENCY to confirm')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/admin/emergency-shutdown')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Type EMERGENCY to confirm'), { target: { value: 'EMERGENCY' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Activate Shutdown' }));
    expect(await screen.findByText('Emergency Shutdown Activated')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/admin/emergency-shutdown')?.body).toEqual({ reason: null });
  });
});

describe('Trip Analytics by Fleet & Rank', () => {
  const rank = (pilotCount: number, totalTrips: number, swapOffers: number) => ({ pilotCount, totalTrips, swapOffers });
  const fleet = (name: 'A330' | 'A350' | 'SFF' | 'B787', cp: ReturnType<typeof rank>, fo: ReturnType<typeof rank>) => ({
    fleet: name,
    CP: cp,
    FO: fo,
    fleetTrips: cp.totalTrips + fo.totalTrips,
    fleetSwaps: cp.swapOffers + fo.swapOffers,
  });

  it('shows the comprehensive figures (by base, test data) and the swap breakdown beside the table', async () => {
    const cp = rank(2, 8, 2);
    const fo = rank(2, 4, 1);
    const overview: AdminAnalytics = { pilots: { total: 4 }, trips: { total: 12, swapOffers: 3 }, fleets: [fleet('A330', cp, fo)], total: fleet('A330', cp, fo) };
    stubFetch((call) => {
      if (call.path === '/api/admin/analytics') return { body: overview };
      if (call.path === '/api/admin/analytics/comprehensive') {
        return { body: { ...overview, bases: [{ base: 'LHR', pilotCount: 3, totalTrips: 9, swapOffers: 2 }, { base: 'MAN', pilotCount: 1, totalTrips: 3, swapOffers: 1 }], testData: { pilotCount: 1, totalTrips: 2, swapOffers: 0 } } };
      }
      if (call.path === '/api/admin/analytics/swap-breakdown') return { body: { total: 3, training: 1, standby: 0, byFleet: { A330: 3 }, byRank: { CP: 2, FO: 1 } } };
      if (call.path === '/api/admin/swaps/proposal-stats') return { body: { days: 30, rows: [{ fleet: 'A350', rank: 'CP', made: 5, agreed: 2, cancelled: 1, approved: 1 }] } };
      return undefined;
    });
    renderWithApp(<AnalyticsPanel />);
    const byBase = (await screen.findByText('By Base')).closest('.ant-card') as HTMLElement;
    expect(within(byBase).getByText('MAN')).toBeInTheDocument();
    expect(byBase).toHaveTextContent('Test data: 1 pilots, 2 trips, 0 swaps.');
    const swaps = (await screen.findByText('Swap Offers')).closest('.ant-card') as HTMLElement;
    expect(swaps).toHaveTextContent('Training1');
    expect(swaps).toHaveTextContent('By CPs2');
    const proposals = (await screen.findByText('Swap Proposals (last 30 days)')).closest('.ant-card') as HTMLElement;
    expect(within(proposals).getAllByRole('row')[1]).toHaveTextContent('A350CP5211');
  });

  it('orders fleets A330, A350, SFF, B787, skips an empty fleet and sums every column in TOTAL', () => {
    const analytics: AdminAnalytics = {
      pilots: { total: 6 },
      trips: { total: 17, swapOffers: 4 },
      fleets: [fleet('B787', rank(1, 3, 1), rank(1, 2, 0)), fleet('SFF', rank(0, 0, 0), rank(0, 0, 0)), fleet('A330', rank(2, 8, 2), rank(2, 4, 1))],
      total: fleet('A330', rank(3, 11, 3), rank(3, 6, 1)),
    };
    const rows = analyticsRows(analytics);
    expect(rows.map((row) => row.fleet)).toEqual(['A330', 'B787', 'TOTAL']);
    expect(rows[2]).toEqual({ fleet: 'TOTAL', cpPilots: 3, cpTrips: 11, cpSwaps: 3, foPilots: 3, foTrips: 6, foSwaps: 1, fleetTrips: 17, fleetSwaps: 4 });
  });

  it('no fleet with data: no rows', () => {
    expect(analyticsRows({ pilots: { total: 0 }, trips: { total: 0, swapOffers: 0 }, fleets: [], total: fleet('A330', rank(0, 0, 0), rank(0, 0, 0)) })).toEqual([]);
  });
});
