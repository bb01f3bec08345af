import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, newPage, pilotData, register, screenshot } from './support';

const ROSTER_C = fileURLToPath(new URL('../../services/roster-ingest/test/fixtures/rosters/roster-c-lhr-b787-fo.ics_', import.meta.url));

/** roster-ingest's SMTP port: 2525 beside the documented ports, basePort+9 in the test stacks. */
function smtpPort(): number {
  if (process.env.SMTP_INGEST_PORT) return Number(process.env.SMTP_INGEST_PORT);
  const port = Number(new URL(BASE_URL).port || 80);
  return port === 8080 ? 2525 : port + 9;
}

/** One mail through a plain SMTP conversation, as a pilot's mail server would deliver it. */
function sendMail(from: string, to: string, message: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(smtpPort(), '127.0.0.1');
    const steps = [`EHLO e2e.local`, `MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, 'DATA', `${message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..')}\r\n.`, 'QUIT'];
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      // A reply ends with a line whose code is followed by a space.
      const lines = buffer.split('\r\n');
      const last = lines.findLast((line) => /^\d{3} /.test(line));
      if (!last) return;
      buffer = '';
      if (!/^[23]/.test(last)) return reject(new Error(`SMTP refused: ${last}`));
      const next = steps.shift();
      if (next === undefined) return socket.end(resolve);
      socket.write(`${next}\r\n`);
    });
    socket.on('error', reject);
  });
}

function rosterMail(from: string, to: string): string {
  const attachment = readFileSync(ROSTER_C).toString('base64').replace(/(.{76})/g, '$1\r\n');
  return [
    `From: ${from}`,
    `To: ${to}`,
    'Subject: My roster',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="roster-boundary"',
    '',
    '--roster-boundary',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Roster attached.',
    '--roster-boundary',
    'Content-Type: text/calendar; name="roster.ics"',
    'Content-Disposition: attachment; filename="roster.ics"',
    'Content-Transfer-Encoding: base64',
    '',
    attachment,
    '--roster-boundary--',
    '',
  ].join('\r\n');
}

describe('real-time updates in the browser', () => {
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser.close();
  });

  test('a roster emailed while the app is open shows its trips without a refresh', async () => {
    page = await newPage(browser);
    const pilot = pilotData('Live');
    await register(page, pilot);
    await page.getByText('No trips yet').waitFor();
    const email = await page.evaluate(async () => ((await (await fetch('/api/pilot/current', { credentials: 'include' })).json()) as { email: string }).email);
    // The pilot's private upload address: the shared one takes only mail whose sender SPF or DKIM
    // vouches for, which a test's mail from 127.0.0.1 cannot have.
    const to = await page.evaluate(async () => ((await (await fetch('/api/roster/upload-address', { credentials: 'include' })).json()) as { address: string }).address);

    await sendMail(email, to, rosterMail(email, to));
    // Nothing is clicked: the import's 'trips added' message refreshes the open list.
    await page.locator('.trip-card').nth(8).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.trip-card').count(), 9);
    await screenshot(page, 'live-roster-email-1280');
  });
});
