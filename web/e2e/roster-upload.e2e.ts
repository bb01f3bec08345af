import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, unique, verificationCode } from './support';

const ROSTER_C = fileURLToPath(new URL('../../services/roster-ingest/test/fixtures/rosters/roster-c-lhr-b787-fo.ics_', import.meta.url));

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).first().click();
  await page.locator('.ant-select-item-option', { hasText: option }).first().click();
}

async function register(page: Page) {
  const id = unique();
  const prefix = `e2e.roster.${id}`;
  await page.goto('/');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('First Name').fill('Niamh');
  await page.getByLabel('Last Name').fill('Okafor-Tester');
  await page.getByLabel('Employee ID').fill(`${Number(id) % 1_000_000}`.padStart(6, '8'));
  await page.getByLabel('Phone').fill('+447700900124');
  await page.getByLabel('Email').fill(prefix);
  await chooseOption(page, 'Rank', 'First Officer (FO)');
  await chooseOption(page, 'Fleet', 'B787');
  await chooseOption(page, 'Base', 'LHR');
  await page.getByLabel('Password', { exact: true }).fill('secret-pass-1');
  await page.getByLabel('Confirm Password').fill('secret-pass-1');
  const since = Date.now();
  await page.getByRole('button', { name: 'Register Pilot' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm your ID and Email' });
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  const verify = page.getByRole('dialog', { name: 'VS Pilot Verification' });
  await verify.waitFor();
  const email = await verify.locator('strong').first().textContent();
  await verify.getByLabel('Verification Code').fill(await verificationCode(email!, since));
  await verify.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('button', { name: /^Edit My Details/ }).waitFor();
}

describe('roster upload in the browser', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser.close();
  });

  test('a pilot uploads roster C through the dialog and sees its trips as cards', async () => {
    const page = await newPage(browser);
    await register(page);
    await page.getByRole('button', { name: 'Upload Roster' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Upload Roster' });
    await dialog.getByText('Only trips and standby duties are uploaded', { exact: false }).waitFor();
    await dialog.getByLabel('Roster file').setInputFiles(ROSTER_C);
    await dialog.getByText('9 trips added').waitFor({ timeout: 30_000 });
    await screenshot(page, 'roster-upload-result');
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('article', { name: /^Trip VS025\/VS026/ }).waitFor();
    assert.equal(await page.locator('article.trip-card').count(), 9);

    // Uploading it again adds nothing: every trip is a duplicate.
    await page.getByRole('button', { name: 'Upload Roster' }).first().click();
    await page.getByRole('dialog', { name: 'Upload Roster' }).getByLabel('Roster file').setInputFiles(ROSTER_C);
    await page.getByText('9 already in your trips (duplicates skipped)').waitFor({ timeout: 30_000 });
    await page.close();
  });
});
