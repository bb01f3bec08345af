import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BaseConfig } from './config';

export interface SigningKeys {
  publicKey: string;
  privateKey?: string;
}

export function generateSigningKeys(): Required<SigningKeys> {
  const { publicKey, privateKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey, privateKey };
}

/**
 * Keys come from the environment where they are set (production). Otherwise they are read from,
 * or on first use written to, a local folder, so every local process signs and verifies alike.
 */
export function loadSigningKeys(config: Pick<BaseConfig, 'JWT_PUBLIC_KEY' | 'JWT_PRIVATE_KEY' | 'SIGNING_KEYS_DIR'>): SigningKeys {
  if (config.JWT_PUBLIC_KEY) return { publicKey: config.JWT_PUBLIC_KEY, privateKey: config.JWT_PRIVATE_KEY };
  const dir = config.SIGNING_KEYS_DIR;
  const publicPath = join(dir, 'session-public.pem');
  const privatePath = join(dir, 'session-private.pem');
  if (!existsSync(publicPath) || !existsSync(privatePath)) {
    mkdirSync(dir, { recursive: true });
    const keys = generateSigningKeys();
    // Write then rename so that processes starting together never read half a key.
    writeFileSync(`${privatePath}.${process.pid}`, keys.privateKey, { mode: 0o600 });
    writeFileSync(`${publicPath}.${process.pid}`, keys.publicKey);
    if (!existsSync(privatePath)) {
      renameSync(`${privatePath}.${process.pid}`, privatePath);
      renameSync(`${publicPath}.${process.pid}`, publicPath);
    }
  }
  return { publicKey: readFileSync(publicPath, 'utf8'), privateKey: readFileSync(privatePath, 'utf8') };
}
