import { generateKeyPairSync } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { requiredInProduction } from './config';

/** The VAPID key pair web push is signed with (RFC 8292), base64url as browsers and web-push take it. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The VAPID settings of every process that needs the pair: notifications serves the public key
 * (and derives its digest links' key from the private one), push-sender signs with it. Unset, a
 * pair is generated into SIGNING_KEYS_DIR for local use; all their replicas must share one pair,
 * so production sets both keys.
 */
export const vapidConfig = {
  VAPID_PUBLIC_KEY: requiredInProduction(z.string().optional()),
  VAPID_PRIVATE_KEY: requiredInProduction(z.string().optional()),
  /** Who runs this application server, for push services to contact (RFC 8292): mailto: or https:. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:)/, 'must start with mailto: or https:')
    .default('mailto:noreply@crewswap.local'),
};

const StoredKeys = z.object({ publicKey: z.string(), privateKey: z.string() });

/** A P-256 pair as web push wants it: the public key uncompressed (65 bytes), the private one 32 bytes. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return { publicKey: point.toString('base64url'), privateKey: jwk.d! };
}

/**
 * From the environment where set (production); otherwise read from, or on first use written to,
 * `vapid.json` beside the local signing keys, so notifications and push-sender share one pair.
 */
export function loadVapidKeys(config: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT: string; SIGNING_KEYS_DIR: string }): VapidKeys {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject: config.VAPID_SUBJECT };
  }
  const path = join(config.SIGNING_KEYS_DIR, 'vapid.json');
  if (!existsSync(path)) {
    mkdirSync(config.SIGNING_KEYS_DIR, { recursive: true });
    // Written whole, then linked into place: a link fails where the file exists, so of processes
    // starting together exactly one pair lands and every one reads it (a rename would let a later
    // pair replace one a process had already read, and the two would sign pushes differently).
    const mine = `${path}.${process.pid}`;
    writeFileSync(mine, JSON.stringify(generateVapidKeys()), { mode: 0o600 });
    try {
      linkSync(mine, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(mine, { force: true });
    }
  }
  return { ...StoredKeys.parse(JSON.parse(readFileSync(path, 'utf8'))), subject: config.VAPID_SUBJECT };
}
