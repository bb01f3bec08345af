import type { PushSubscriptionBody } from '@crewswap/proto';

/** The browser's side of web push: support, permission, and the PushManager subscription. */

/** Pilot spec section 5: the badge next to Enable Push. */
export type PushStatus = 'Not Supported' | 'Blocked' | 'Permission Needed' | 'Enabled' | 'Disabled';

export const SUBSCRIBE_TIMEOUT_MS = 10_000;

/** The spec's push errors (pilot spec section 8), each shown under 'Notification Error'. */
export const PUSH_ERRORS = {
  noPush: 'Push notifications are not supported in this browser: it has no service workers or no push service.',
  noNotifications: 'Notifications are not supported in this browser.',
  denied: 'Notifications are blocked for this site. Enable them in your browser settings, then refresh the page.',
  edge: 'Microsoft Edge needs notifications enabled by hand: open Settings > Cookies and site permissions > Notifications, allow this site, then try again.',
  timeout: 'Subscribing to push notifications timed out after 10 seconds. Please try again.',
  noKeys: 'The browser gave a push subscription without its keys. Please try again.',
  saveFailed: (status: number) => `Failed to save the push subscription (status ${status}).`,
} as const;

export class PushError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PushError';
  }
}

export function pushSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof window !== 'undefined' && 'PushManager' in window;
}

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export function pushStatus(subscribed: boolean): PushStatus {
  if (!pushSupported() || !notificationsSupported()) return 'Not Supported';
  if (Notification.permission === 'denied') return 'Blocked';
  if (Notification.permission === 'default') return 'Permission Needed';
  return subscribed ? 'Enabled' : 'Disabled';
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}


export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new PushError(message)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Asks for permission if needed and subscribes this browser with the server's VAPID key; answers
 * what the server stores. Every refusal is a PushError worded for the pilot.
 */
export async function subscribeBrowser(vapidPublicKey: string): Promise<PushSubscriptionBody> {
  if (!pushSupported()) throw new PushError(PUSH_ERRORS.noPush);
  if (!notificationsSupported()) throw new PushError(PUSH_ERRORS.noNotifications);
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') throw new PushError(PUSH_ERRORS.denied);
  const subscription = await withTimeout(
    (async () => {
      const registration = await navigator.serviceWorker.ready;
      const existing = await registration.pushManager.getSubscription();
      if (existing) return existing;
      return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(vapidPublicKey) });
    })(),
    SUBSCRIBE_TIMEOUT_MS,
    PUSH_ERRORS.timeout,
  ).catch((error: unknown) => {
    if (error instanceof PushError) throw error;
    // Edge refuses the subscription outright until notifications are allowed in its settings.
    if (/\bEdg\//.test(navigator.userAgent)) throw new PushError(PUSH_ERRORS.edge);
    throw error;
  });
  const json = subscription.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!json.endpoint || !p256dh || !auth) throw new PushError(PUSH_ERRORS.noKeys);
  return { endpoint: json.endpoint, keys: { p256dh, auth } };
}

/** Drops this browser's subscription; answers its endpoint, if it had one. */
export async function unsubscribeBrowser(): Promise<string | undefined> {
  const subscription = await currentSubscription();
  if (!subscription) return undefined;
  await subscription.unsubscribe();
  return subscription.endpoint;
}
