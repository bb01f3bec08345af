import { createSign, createVerify } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSigningKeys } from '../src/sessions/keys';
import { callInProcessesAtOnce } from '@crewswap/kit-testing';

const signs = (privateKey: string, publicKey: string) => {
  const signature = createSign('SHA256').update('crewswap').sign(privateKey);
  return createVerify('SHA256').update('crewswap').verify(publicKey, signature);
};

describe('local signing keys', () => {
  it('come from the environment where set', () => {
    expect(loadSigningKeys({ JWT_PUBLIC_KEY: 'pub', JWT_PRIVATE_KEY: 'priv', SIGNING_KEYS_DIR: '/nonexistent' })).toEqual({ publicKey: 'pub', privateKey: 'priv' });
  });

  it('are made once and read again, as a pair that signs and verifies', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'crewswap-keys-')), 'keys');
    const first = loadSigningKeys({ SIGNING_KEYS_DIR: dir });
    expect(signs(first.privateKey!, first.publicKey)).toBe(true);
    expect(loadSigningKeys({ SIGNING_KEYS_DIR: dir })).toEqual(first);
    expect(readdirSync(dir).sort()).toEqual(['session-private.pem', 'session-public.pem']);
  });

  it('six processes starting together on a new folder all read one pair, and leave no other file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'crewswap-keys-')), 'keys');
    const loaded = await callInProcessesAtOnce<{ publicKey: string; privateKey: string }>(join(__dirname, '..', 'src', 'sessions', 'keys.ts'), 'loadSigningKeys', { SIGNING_KEYS_DIR: dir }, 6);
    for (const keys of loaded) expect(keys).toEqual(loaded[0]);
    expect(signs(loaded[0]!.privateKey, loaded[0]!.publicKey)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['session-private.pem', 'session-public.pem']);
  }, 60_000);
});
