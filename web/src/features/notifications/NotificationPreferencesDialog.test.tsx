import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch, type Call } from '../../../test/render';
import NotificationPreferencesDialog from './NotificationPreferencesDialog';

// 65-byte P-256 point and 16-byte secret, base64url, as a browser's subscription carries them.
const P256DH = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const AUTH = 'tBHItJI5svbpez7KI4CCXg';
const VAPID = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const ENDPOINT = 'https://push.example.test/send/abc';

/**
 * Stands in for the browser's push machinery (Notification, the service worker registration and
 * its PushManager): jsdom has none of it.
 */
function fakeBrowserPush(permission: NotificationPermission, answer: NotificationPermission = 'granted') {
  let subscription: { endpoint: string; toJSON(): PushSubscriptionJSON; unsubscribe: () => Promise<boolean> } | null = null;
  const unsubscribe = vi.fn(async () => {
    subscription = null;
    return true;
  });
  const pushManager = {
    getSubscription: async () => subscription,
    subscribe: vi.fn(async (_options: PushSubscriptionOptionsInit) => {
      subscription = { endpoint: ENDPOINT, toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } }), unsubscribe };
      return subscription;
    }),
  };
  const registration = { pushManager };
  const notification = {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = answer;
      return answer;
    }),
  };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', class {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve(registration), getRegistration: async () => registration },
  });
  return { pushManager, notification, unsubscribe };
}

function server(overrides: (call: Call) => { status?: number; body?: unknown } | undefined = () => undefined) {
  let stored = { enabled: true, swapNotifications: true, whatsappGroupAlerts: true, swapProposals: true, urgent: true, quietHours: null, digest: null };
  return stubFetch((call) => {
    const answer = overrides(call);
    if (answer) return answer;
    if (call.path === '/api/notifications/preferences' && call.method === 'GET') return { body: stored };
    if (call.path === '/api/notifications/preferences' && call.method === 'PUT') {
      stored = { ...stored, ...(call.body as object) };
      return { body: stored };
    }
    if (call.path === '/api/notifications/vapid-public-key') return { body: { publicKey: VAPID } };
    if (call.path === '/api/notifications/subscribe') return { status: 201, body: { message: 'Push notifications enabled' } };
    if (call.path === '/api/notifications/unsubscribe') return { body: { message: 'Push notifications disabled', removed: 1 } };
    if (call.path === '/api/notifications/test') return { body: { message: 'Test notification sent', subscriptions: 1 } };
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('Notification Preferences', () => {
  it('shows Not Supported where the browser has no push, and the three switches as the server holds them', async () => {
    server();
    renderWithApp(<NotificationPreferencesDialog onClose={() => {}} />);
    expect(await screen.findByRole('switch', { name: 'Enabled' })).toBeChecked();
    expect(screen.getByLabelText('Push status: Not Supported')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Enable Push' })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Swap Notifications' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'WhatsApp Group Alerts' })).toBeChecked();
    expect(screen.getByRole('button', { name: /Send Test/ })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Quiet Hours' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Urgent Offers' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Daily Digest' })).not.toBeChecked();
  });

  it("quiet hours and the digest are saved in the browser's time zone", async () => {
    const { calls } = server();
    renderWithApp(<NotificationPreferencesDialog onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('switch', { name: 'Quiet Hours' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Quiet Hours' })).toBeChecked());
    fireEvent.click(screen.getByRole('switch', { name: 'Daily Digest' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Daily Digest' })).toBeChecked());
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { quietHours: { start: '22:00', end: '07:00', timeZone } },
      { digest: { hour: 7, timeZone } },
    ]);
  });

  it('a switch sends only its own field; with Enabled off the swap and WhatsApp switches are disabled', async () => {
    const { calls } = server();
    renderWithApp(<NotificationPreferencesDialog onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('switch', { name: 'Swap Notifications' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Swap Notifications' })).not.toBeChecked());
    expect(await screen.findByText('Preferences Updated')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('switch', { name: 'Enabled' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'WhatsApp Group Alerts' })).toBeDisabled());
    expect(screen.getByRole('switch', { name: 'Swap Notifications' })).toBeDisabled();
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([{ swapNotifications: false }, { enabled: false }]);
  });

  it("a refused change shows 'Failed to update notification preferences' and keeps the switch as it was", async () => {
    server((call) => (call.method === 'PUT' ? { status: 500, body: { error: 'Internal error' } } : undefined));
    renderWithApp(<NotificationPreferencesDialog onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('switch', { name: 'WhatsApp Group Alerts' }));
    expect(await screen.findByText('Failed to update notification preferences')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'WhatsApp Group Alerts' })).toBeChecked();
  });

  it('Enable Push asks for permission, subscribes with the VAPID key and saves {endpoint, keys}; Send Test and turning it off follow', async () => {
    const push = fakeBrowserPush('default');
    const { calls } = server();
    renderWithApp(<NotificationPreferencesDialog onClose={() => {}} />);
    expect(await screen.findByLabelText('Push status: Permission Needed')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.path === '/api/notifications/vapid-public-key')).toBe(true));
    fireEvent.click(screen.getByRole('switch', { name: 'Enable Push' }));
    expect(await screen.findByLabelText('Push status: Enabled')).toBeInTheDocument();
    expect(push.notification.requestPermission).toHaveBeenCalled();
    const options = push.pushManager.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect((options.applicationServerKey as Uint8Array).length).toBe(65);
    expect(calls.find((call) => call.path === '/api/notifications/subscribe')).toMatchObject({
      method: 'POST',
      body: { endpoint: ENDPOINT, keys: { p256dh: P256DH, auth: AUTH } },
    });
    expect(screen.getByRole('switch', { name: 'Enable Push' })).toBeChecked();

    fireEvent.click(screen.getByRole('button', { name: /Send Test/ }));
    expect(await screen.findByText('Test Notification Sent')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/api/notifications/test').map((call) => call.method)).toEqual(['POST']);

    fireEvent.click(screen.getByRole('switch', { name: 'Enable Push' }));
    expect(await screen.findByLabelText('Push status: Disabled')).toBeInTheDocument();
    expect(push.unsubscribe).toHaveBeenCalled();
    expect(calls.filter((call) => call.path === '/api/notifications/unsubscribe').map((call) => call.method)).toEqual(['DELETE']);
  });

  it('permission refused: the badge says Blocked and Enable Push cannot be turned on', async () => {
    fakeBrowserPush('default', 'denied');
    server();
    renderWithApp(<NotificationPreferencesDialog onClose={() => {}} />);
    await screen.findByLabelText('Push status: Permission Needed');
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Enable Push' })).not.toBeDisabled());
    fireEvent.click(screen.getByRole('switch', { name: 'Enable Push' }));
    expect(await screen.findByText('Notification Error')).toBeInTheDocument();
    expect(screen.getByText(/Enable them in your browser settings, then refresh the page/, { selector: '.ant-notification *' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Push status: Blocked')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Enable Push' })).toBeDisabled();
  });

  it('a subscription the server will not save is told with its status', async () => {
    fakeBrowserPush('granted');
    server((call) => (call.path === '/api/notifications/subscribe' ? { status: 400, body: { error: 'endpoint must be an https URL' } } : undefined));
    renderWithApp(<NotificationPreferencesDialog onClose={() => {}} />);
    await screen.findByLabelText('Push status: Disabled');
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Enable Push' })).not.toBeDisabled());
    fireEvent.click(screen.getByRole('switch', { name: 'Enable Push' }));
    expect(await screen.findByText('Failed to save the push subscription (status 400).')).toBeInTheDocument();
  });
});
