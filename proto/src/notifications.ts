import { z } from 'zod';
import { DigestPreference, QuietHours } from './alerts';

/** A pilot's notification preferences; a pilot who never set them has everything on. */
export const NotificationPreferences = z.object({
  enabled: z.boolean(),
  swapNotifications: z.boolean(),
  whatsappGroupAlerts: z.boolean(),
  /** Proposals for my offers and answers to mine (issue 37); absent in events written before it. */
  swapProposals: z.boolean().default(true),
  // Issue 39; the defaults read events published before these fields existed.
  /** Urgent offers come through quiet hours. */
  urgent: z.boolean().default(true),
  quietHours: QuietHours.nullable().default(null),
  /** The daily digest mail (opt-in). */
  digest: DigestPreference.nullable().default(null),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  enabled: true,
  swapNotifications: true,
  whatsappGroupAlerts: true,
  swapProposals: true,
  urgent: true,
  quietHours: null,
  digest: null,
};

/** PUT /api/notifications/preferences: any of the fields; the answer is the whole set. */
export const UpdateNotificationPreferencesBody = z
  .strictObject({
    enabled: z.boolean('enabled must be true or false').optional(),
    swapNotifications: z.boolean('swapNotifications must be true or false').optional(),
    whatsappGroupAlerts: z.boolean('whatsappGroupAlerts must be true or false').optional(),
    swapProposals: z.boolean('swapProposals must be true or false').optional(),
    urgent: z.boolean('urgent must be true or false').optional(),
    quietHours: QuietHours.nullable().optional(),
    digest: DigestPreference.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one of enabled, swapNotifications, whatsappGroupAlerts, swapProposals, urgent, quietHours, digest');
export type UpdateNotificationPreferencesBody = z.infer<typeof UpdateNotificationPreferencesBody>;

const base64Url = (name: string, bytes: number) =>
  z
    .string(`${name} is required`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${name} must be base64url`)
    // Decoded length without decoding (proto also runs in the browser, which has no Buffer).
    .refine((value) => Math.floor((value.replace(/=+$/, '').length * 3) / 4) === bytes, `${name} must be ${bytes} bytes`);

/**
 * POST /api/notifications/subscribe: the browser's PushSubscription as `{endpoint, keys}` (send
 * `{endpoint: s.endpoint, keys: s.toJSON().keys}`, not the whole toJSON(), whose expirationTime
 * this route does not take). p256dh is an uncompressed P-256 point (65 bytes), auth 16 bytes.
 */
export const PushSubscriptionBody = z.strictObject({
  endpoint: z
    .url('endpoint must be an https URL')
    .max(2048, 'endpoint is too long')
    .refine((url) => url.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url), 'endpoint must be an https URL'),
  keys: z.strictObject(
    {
      p256dh: base64Url('keys.p256dh', 65),
      auth: base64Url('keys.auth', 16),
    },
    'keys must be {p256dh, auth}',
  ),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/** GET /api/notifications/vapid-public-key: the application server key for pushManager.subscribe (base64url). */
export const VapidPublicKeyResponse = z.object({ publicKey: z.string() });
export type VapidPublicKeyResponse = z.infer<typeof VapidPublicKeyResponse>;

export const SubscribeResponse = z.object({ message: z.string() });
export const UnsubscribeResponse = z.object({ message: z.string(), removed: z.number().int() });
/** POST /api/notifications/test: queued for each of the pilot's subscriptions. */
export const TestPushResponse = z.object({ message: z.string(), subscriptions: z.number().int() });
export const ClearAllSubscriptionsResponse = z.object({ message: z.string(), deleted: z.number().int() });
export type ClearAllSubscriptionsResponse = z.infer<typeof ClearAllSubscriptionsResponse>;

export const NOTIFICATION_MESSAGES = {
  subscribed: 'Push notifications enabled',
  unsubscribed: 'Push notifications disabled',
  testQueued: 'Test notification sent',
  noSubscription: 'No push subscription found. Enable push notifications first.',
  pushDisabled: 'Notifications are turned off in your preferences.',
  cleared: 'All push subscriptions cleared',
} as const;

export const PushKind = z.enum(['swap_offer', 'whatsapp_group', 'test', 'swap_proposal', 'roster_change']);
export type PushKind = z.infer<typeof PushKind>;

/**
 * What the service worker receives in a push event (`event.data.json()`): show
 * `registration.showNotification(title, {body, tag, data: {url}})`, and on click open `url`
 * (a path inside the app).
 */
export const PushPayload = z.object({
  kind: PushKind,
  title: z.string(),
  body: z.string(),
  /** Path in the app to open on click, e.g. '/?trip=<id>'; '/' when nothing more specific. */
  url: z.string(),
  /** Same tag replaces an earlier notification of the same thing instead of stacking. */
  tag: z.string(),
  sentAt: z.string(),
});
export type PushPayload = z.infer<typeof PushPayload>;
