import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentAdmin } from '@crewswap/proto';
import { renderWithApp, stubFetch } from '../../../../test/render';
import SecurityPanel from '../panels/security/SecurityPanel';
import SystemSettingsPanel from '../panels/settings/SystemSettingsPanel';
import { MASTER, SECURITY_SETTINGS, SETTINGS } from './fixtures';

afterEach(() => vi.unstubAllGlobals());

const SECURITY_ONLY: CurrentAdmin = { ...MASTER, isMasterAdmin: false, permissions: ['view_security_alerts'] };
const SETTINGS_ONLY: CurrentAdmin = { ...MASTER, isMasterAdmin: false, permissions: ['manage_settings'] };

type Answer = { status?: number; body?: unknown } | undefined;

function renderPanel(panel: 'security' | 'settings', me: CurrentAdmin, answer: (call: { method: string; path: string; body: unknown }) => Answer = () => undefined) {
  const stub = stubFetch((call) => {
    if (call.path === '/api/admin/current') return { body: me };
    if (call.path === '/api/admin/settings' && call.method === 'GET') return { body: [...SETTINGS, ...SECURITY_SETTINGS] };
    if (call.path === '/api/admin/emergency-status') return { body: { isShutdown: false } };
    return answer(call);
  });
  renderWithApp(panel === 'security' ? <SecurityPanel /> : <SystemSettingsPanel />);
  return stub;
}

async function changeTimeoutTo(label: string) {
  const card = (await screen.findByText('Session Timeout')).closest('.ant-card') as HTMLElement;
  fireEvent.mouseDown(within(card).getByRole('combobox'));
  fireEvent.click(await screen.findByTitle(label));
  fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
  return screen.findByRole('dialog', { name: 'Restart Required' });
}

describe('session timeout restart', () => {
  it('asks for the restart confirmation and sends nothing when it is cancelled', async () => {
    const { calls } = renderPanel('security', MASTER);
    const dialog = await changeTimeoutTo('1 hour');
    expect(within(dialog).getByText(/requires a server restart/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('saves the timeout and restarts once confirmed', async () => {
    const { calls } = renderPanel('security', MASTER, (call) => {
      if (call.method === 'PUT') return { body: { key: 'session_timeout_minutes', value: '60', updated_at: 'now' } };
      if (call.path === '/api/admin/restart-server') return { body: { message: 'Restart requested.' } };
      return undefined;
    });
    fireEvent.click(within(await changeTimeoutTo('1 hour')).getByRole('button', { name: 'Save and Restart' }));
    expect(await screen.findByText('Restart requested.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([
      { method: 'PUT', path: '/api/admin/settings/session_timeout_minutes', body: { value: '60' } },
      { method: 'POST', path: '/api/admin/restart-server', body: {} },
    ]);
  });

  it("says 'Restart failed' when the restart is refused: the timeout may not take effect until a manual restart", async () => {
    renderPanel('security', MASTER, (call) => {
      if (call.method === 'PUT') return { body: { key: 'session_timeout_minutes', value: '60', updated_at: 'now' } };
      if (call.path === '/api/admin/restart-server') return { status: 500, body: { error: 'Bus unavailable' } };
      return undefined;
    });
    fireEvent.click(within(await changeTimeoutTo('1 hour')).getByRole('button', { name: 'Save and Restart' }));
    expect(await screen.findByText('Restart failed')).toBeInTheDocument();
    expect(screen.getByText('Session timeout changes may not take effect until a manual restart.')).toBeInTheDocument();
  });
});

describe('daily access code', () => {
  it('refuses a code that is not exactly 6 digits before sending it, as the server would', async () => {
    const { calls } = renderPanel('security', MASTER);
    const input = (await screen.findByLabelText('Code')) as HTMLInputElement;
    const card = input.closest('.ant-card') as HTMLElement;
    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await within(card).findByText('Daily access code must be exactly 6 digits')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });
});

describe('emergency controls follow the Security menu', () => {
  it('shows the emergency shutdown card to an admin holding only view_security_alerts', async () => {
    const { calls } = renderPanel('security', SECURITY_ONLY);
    expect(await screen.findByRole('button', { name: 'Emergency Shutdown' })).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toContain('/api/admin/emergency-status');
  });
});

describe('Clear Push Subscriptions', () => {
  const confirmClear = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'Clear Push Subscriptions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clear Push Subscriptions' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear All' }));
  };

  it('clears after the confirm dialog and says how many devices were removed', async () => {
    const { calls } = renderPanel('settings', MASTER, (call) =>
      call.path === '/api/notifications/clear-all' ? { body: { message: 'All push subscriptions cleared', deleted: 3 } } : undefined,
    );
    await confirmClear();
    expect(await screen.findByText('Subscriptions Cleared')).toBeInTheDocument();
    expect(screen.getByText('All push subscriptions cleared (3 devices removed).')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([{ method: 'DELETE', path: '/api/notifications/clear-all', body: undefined }]);
  });

  it("a refusal: a toast titled 'Error' with the server's message", async () => {
    renderPanel('settings', MASTER, (call) => (call.path === '/api/notifications/clear-all' ? { status: 403, body: { error: 'You do not have permission to do this.' } } : undefined));
    await confirmClear();
    expect(await screen.findByText('You do not have permission to do this.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it('is disabled without manage_system (the notifications service would refuse it)', async () => {
    renderPanel('settings', SETTINGS_ONLY);
    expect(await screen.findByRole('button', { name: 'Clear Push Subscriptions' })).toBeDisabled();
  });
});

describe('Tech Support WhatsApp group link', () => {
  it('accepts blank or an invite link and refuses anything else in the spec-style message', async () => {
    const { calls } = renderPanel('settings', MASTER, (call) => (call.method === 'PUT' ? { body: { key: 'tech_support_whatsapp_url', value: 'x', updated_at: 'now' } } : undefined));
    const field = await screen.findByLabelText('Tech Support WhatsApp Group Link');
    fireEvent.change(field, { target: { value: 'https://example.com/group' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Please enter a WhatsApp group invite link (https://chat.whatsapp.com/...)')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);
    fireEvent.change(field, { target: { value: 'https://chat.whatsapp.com/AbCdEfGhIj1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Settings updated')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([
      { method: 'PUT', path: '/api/admin/settings/tech_support_whatsapp_url', body: { value: 'https://chat.whatsapp.com/AbCdEfGhIj1234' } },
    ]);
  });
});

describe('testing password', () => {
  it('can be set in the console, write-only: the field starts empty, sends the new password and empties again', async () => {
    const { calls } = renderPanel('security', MASTER, (call) =>
      call.method === 'PUT' ? { body: { key: 'testing_password', value: 'hidden', updated_at: 'now' } } : undefined,
    );
    const field = await screen.findByLabelText('Testing password');
    expect(field).toHaveValue('');
    expect(screen.getByText('No testing password is set yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set Testing Password' })).toBeDisabled();
    fireEvent.change(field, { target: { value: 'crew-test-2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set Testing Password' }));
    expect(await screen.findByText('The testing password has been changed.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([{ method: 'PUT', path: '/api/admin/settings/testing_password', body: { value: 'crew-test-2026' } }]);
    expect(screen.getByLabelText('Testing password')).toHaveValue('');
  });
});
