import { generateKeyPairSync } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BaseConfig } from '../config';

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
  if (!existsSync(privatePath)) {
    mkdirSync(dir, { recursive: true });
    const keys = generateSigningKeys();
    // Each process writes a pair of its own, then links it into place. A link fails where the file
    // exists, so of processes starting together exactly one pair lands (a rename would let a
    // later one replace the private key after an earlier one had read its pair): the process
    // whose private key landed links its public key beside it.
    const mine = (path: string) => `${path}.${process.pid}`;
    writeFileSync(mine(privatePath), keys.privateKey, { mode: 0o600 });
    writeFileSync(mine(publicPath), keys.publicKey);
    try {
      linkSync(mine(privatePath), privatePath);
      linkSync(mine(publicPath), publicPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(mine(privatePath), { force: true });
      rmSync(mine(publicPath), { force: true });
    }
  }
  return { publicKey: readWhenWritten(publicPath, privatePath), privateKey: readFileSync(privatePath, 'utf8') };
}

/** How long a process waits for the public key another process is linking beside its private key. */
const PAIR_WAIT_MS = 2_000;

function readWhenWritten(publicPath: string, privatePath: string): string {
  const deadline = Date.now() + PAIR_WAIT_MS;
  while (!existsSync(publicPath)) {
    if (Date.now() > deadline) {
      throw new Error(`${privatePath} has no public key beside it (${publicPath}): delete it to have a new pair made.`);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  return readFileSync(publicPath, 'utf8');
}
