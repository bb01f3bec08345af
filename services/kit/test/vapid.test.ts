import { createECDH } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callInProcessesAtOnce } from '@crewswap/kit-testing';
import { loadVapidKeys, type VapidKeys } from '../src/vapid';

describe('VAPID keys', () => {
  it('come from the environment where set', () => {
    const keys = loadVapidKeys({ VAPID_PUBLIC_KEY: 'pub', VAPID_PRIVATE_KEY: 'priv', VAPID_SUBJECT: 'mailto:a@b.test', SIGNING_KEYS_DIR: '/nonexistent' });
    expect(keys).toEqual({ publicKey: 'pub', privateKey: 'priv', subject: 'mailto:a@b.test' });
  });

  it('are generated once for local use beside the signing keys, as one P-256 pair, and notifications and push-sender read the same pair', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'crewswap-keys-')), 'keys');
    const config = { VAPID_SUBJECT: 'mailto:a@b.test', SIGNING_KEYS_DIR: dir };
    const first = loadVapidKeys(config);
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    // The public key is the private key's: a browser verifies what push-sender signs with it.
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(first.privateKey, 'base64url'));
    expect(ecdh.getPublicKey().toString('base64url')).toBe(first.publicKey);
    expect(loadVapidKeys(config)).toEqual(first);
    expect(readdirSync(dir)).toEqual(['vapid.json']);
  });
});

describe('VAPID keys when processes start together', () => {
  it('six processes on a new folder all read one pair, and leave no other file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'crewswap-keys-')), 'keys');
    const config = { VAPID_SUBJECT: 'mailto:a@b.test', SIGNING_KEYS_DIR: dir };
    const loaded = await callInProcessesAtOnce<VapidKeys>(join(__dirname, '..', 'src', 'vapid.ts'), 'loadVapidKeys', config, 6);
    for (const keys of loaded) expect(keys).toEqual(loaded[0]);
    expect(readdirSync(dir)).toEqual(['vapid.json']);
  }, 60_000);
});
