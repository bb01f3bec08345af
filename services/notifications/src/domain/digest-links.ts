import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The digest's one-click unsubscribe link: the pilot's id and an HMAC of it, so it works without
 * login and cannot be made for another pilot. The key is derived from the VAPID private key,
 * the one secret notifications already holds, for this purpose alone.
 */
export function createDigestLinks(options: { secret: string; origin: string }) {
  const key = Buffer.from(hkdfSync('sha256', options.secret, 'crewswap', 'digest-unsubscribe', 32));
  const mac = (pilotId: string) => createHmac('sha256', key).update(`digest-unsubscribe:${pilotId}`).digest('base64url');
  return {
    url(pilotId: string): string {
      return `${options.origin.replace(/\/$/, '')}/api/notifications/digest/unsubscribe?token=${pilotId}.${mac(pilotId)}`;
    },
    /** The pilot the token names, or undefined when it is not one we signed. */
    verify(token: string): string | undefined {
      const [pilotId = '', signature = ''] = token.split('.');
      if (!/^[0-9a-f-]{36}$/.test(pilotId)) return undefined;
      const expected = Buffer.from(mac(pilotId));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? pilotId : undefined;
    },
  };
}
export type DigestLinks = ReturnType<typeof createDigestLinks>;
