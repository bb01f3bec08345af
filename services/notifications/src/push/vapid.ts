import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
    // Write then rename so that processes starting together never read half a file.
    const mine = `${path}.${process.pid}`;
    writeFileSync(mine, JSON.stringify(webpush.generateVAPIDKeys()), { mode: 0o600 });
    // Another process may have written the pair meanwhile: theirs stands, ours goes.
    if (existsSync(path)) rmSync(mine);
    else renameSync(mine, path);
  }
  return { ...StoredKeys.parse(JSON.parse(readFileSync(path, 'utf8'))), subject: config.VAPID_SUBJECT };
}
