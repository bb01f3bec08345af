import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const StoredKeys = z.object({ publicKey: z.string(), privateKey: z.string() });

/**
 * From the environment where set (production); otherwise read from, or on first use written to,
 * `vapid.json` beside the local signing keys, so the API and push-sender share one pair.
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
    writeFileSync(mine, JSON.stringify(webpush.generateVAPIDKeys()), { mode: 0o600 });
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
