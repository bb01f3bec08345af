import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const BASE_URL = required('BASE_URL').replace(/\/$/, '');
export const MAIL_OUTBOX_DIR = required('MAIL_OUTBOX_DIR');
export const SCREENSHOTS = new URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SCREENSHOTS, { recursive: true });

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set (see web/e2e/run.ts)`);
  return value;
}

/** Debian's Chromium, never a downloaded browser; playwright gives each launch a fresh profile. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function newPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: BASE_URL });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** A run-unique number, so registrations never clash with earlier runs against the same stack. */
export function unique(): string {
  return String(Date.now()).slice(-6);
}

/** The newest verification code mailed to `email` (waits for the mail to arrive). */
export function verificationCode(email: string, since: number, timeoutMs = 15_000): Promise<string> {
  return mailed(email, since, /verification code is:?\s+([A-Za-z0-9]{6,20})\b/i, timeoutMs);
}

/** The newest temporary password mailed to `email` (after 5 failed logins or Forgot Password). */
export function temporaryPassword(email: string, since: number, timeoutMs = 15_000): Promise<string> {
  return mailed(email, since, /temporary password is:?\s+(\S+)/i, timeoutMs);
}

/** The first group of `pattern` in the newest mail to `email` sent after `since`. */
async function mailed(email: string, since: number, pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = readdirSync(MAIL_OUTBOX_DIR, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.eml'))
      .map((name) => join(MAIL_OUTBOX_DIR, name))
      .filter((path) => statSync(path).mtimeMs >= since - 1000)
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      if (!new RegExp(`^To:.*${email.replace(/[.+]/g, '\\$&')}`, 'mi').test(text)) continue;
      const value = pattern.exec(decodeMail(text))?.[1];
      if (value) return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No mail matching ${pattern} for ${email} in ${MAIL_OUTBOX_DIR}`);
}

/** Enough MIME for a code: headers dropped, quoted-printable and base64 parts decoded. */
function decodeMail(raw: string): string {
  const body = raw.split(/\r?\n\r?\n/).slice(1).join('\n');
  const base64 = body.match(/^[A-Za-z0-9+/=\r\n]{40,}$/m)?.[0];
  const decoded = base64 ? Buffer.from(base64.replace(/\s/g, ''), 'base64').toString('utf8') : '';
  return `${body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))}\n${decoded}`;
}
