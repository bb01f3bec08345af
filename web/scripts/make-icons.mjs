// Draws the app's icons (public/icons/*.png) from the header's plane with Debian's Chromium:
// `node scripts/make-icons.mjs`. The PNGs are committed; run this only to change them.
import { chromium } from 'playwright-core';

const PLANE = 'M21 16v-2l-8-5V3.5a1.5 1.5 0 0 0-3 0V9l-8 5v2l8-2.5V19l-2 1.5V22l3.5-1 3.5 1v-1.5L13 19v-5.5z';
const BRAND = '#3b2b8f';
const out = new URL('../public/icons/', import.meta.url).pathname;

/** The plane turned for take-off, `scale` times its 24 px drawing, on `background` (or none). */
const svg = (scale, background, plane = '#ffffff') => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  ${background ? `<rect width="512" height="512" fill="${background}"/>` : ''}
  <g transform="translate(256 256) rotate(45) scale(${scale}) translate(-12 -12.5)"><path fill="${plane}" d="${PLANE}"/></g>
</svg>`;

const icons = [
  { name: 'icon-192.png', size: 192, svg: svg(13, BRAND) },
  { name: 'icon-512.png', size: 512, svg: svg(13, BRAND) },
  // Maskable: the launcher may crop to a circle of 80 %, so the plane stays well inside.
  { name: 'icon-maskable-512.png', size: 512, svg: svg(10, BRAND) },
  { name: 'apple-touch-icon.png', size: 180, svg: svg(12, BRAND) },
  // Android's status-bar badge uses only the alpha channel.
  { name: 'badge-96.png', size: 96, svg: svg(16, null) },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
for (const icon of icons) {
  await page.setViewportSize({ width: icon.size, height: icon.size });
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block;width:${icon.size}px;height:${icon.size}px}</style>${icon.svg}`);
  await page.screenshot({ path: out + icon.name, omitBackground: true });
  console.log(`${icon.name} ${icon.size}x${icon.size}`);
}
await browser.close();
