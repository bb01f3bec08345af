import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callInProcessesAtOnce } from '@crewswap/kit/testing';
import { loadVapidKeys, type VapidKeys } from '../src/push/vapid';

describe('VAPID keys', () => {
  it('come from the environment where set', () => {
    const keys = loadVapidKeys({ VAPID_PUBLIC_KEY: 'pub', VAPID_PRIVATE_KEY: 'priv', VAPID_SUBJECT: 'mailto:a@b.test', SIGNING_KEYS_DIR: '/nonexistent' });
    expect(keys).toEqual({ publicKey: 'pub', privateKey: 'priv', subject: 'mailto:a@b.test' });
  });

  it('are generated once for local use beside the signing keys, and the API and push-sender read the same pair', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'crewswap-keys-')), 'keys');
    const config = { VAPID_SUBJECT: 'mailto:a@b.test', SIGNING_KEYS_DIR: dir };
    const first = loadVapidKeys(config);
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(loadVapidKeys(config)).toEqual(first);
    expect(readdirSync(dir)).toEqual(['vapid.json']);
  });
});

describe('VAPID keys when processes start together', () => {
  it('six processes on a new folder all read one pair, and leave no other file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'crewswap-keys-')), 'keys');
    const config = { VAPID_SUBJECT: 'mailto:a@b.test', SIGNING_KEYS_DIR: dir };
    const loaded = await callInProcessesAtOnce<VapidKeys>(join(__dirname, '..', 'src', 'push', 'vapid.ts'), 'loadVapidKeys', config, 6);
    for (const keys of loaded) expect(keys).toEqual(loaded[0]);
    expect(readdirSync(dir)).toEqual(['vapid.json']);
  }, 60_000);
});
