import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Compares secrets in constant time whatever their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface Passwords {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string | undefined): Promise<boolean>;
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 64, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const options = (cost: number): ScryptOptions => {
  const N = 2 ** cost;
  return { N, r: 8, p: 1, maxmem: 256 * N * 8 };
};

/**
 * scrypt from node:crypto. The stored form names its own cost (`scrypt$cost$salt$key`), so the
 * cost can be raised later and old hashes still verify.
 */
export function createPasswords(cost: number): Passwords {
  // Checked when the email is unknown, so that answer takes as long as a real check.
  let dummy: Promise<string> | undefined;
  const hash = async (password: string) => {
    const salt = randomBytes(16);
    const key = await derive(password, salt, options(cost));
    return `scrypt$${cost}$${salt.toString('base64')}$${key.toString('base64')}`;
  };
  return {
    hash,
    async verify(password, stored) {
      dummy ??= hash('no such pilot');
      const [scheme, storedCost, salt, key] = (stored ?? (await dummy)).split('$');
      if (scheme !== 'scrypt' || !storedCost || !salt || !key) return false;
      const derived = await derive(password, Buffer.from(salt, 'base64'), options(Number(storedCost)));
      return sameSecret(derived.toString('base64'), key) && stored !== undefined;
    },
  };
}

const TEMPORARY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** Easy to type from a mail: no 0/O or 1/l/I. */
export function temporaryPassword(length = 10): string {
  let password = '';
  for (let i = 0; i < length; i++) password += TEMPORARY_ALPHABET[randomInt(TEMPORARY_ALPHABET.length)];
  return password;
}

/** Eight digits: with at most 5 wrong tries per 15 minutes, guessing is hopeless. */
export function verificationCode(): string {
  return String(randomInt(0, 100_000_000)).padStart(8, '0');
}
