/**
 * The web app manifest (admin spec: installable, opened with roster files, shared to). Built into
 * dist/manifest.webmanifest by vite.config.ts with the product name of the build.
 */
import { BRAND_TOKENS } from '../theme-tokens';

const ROSTER_EXTENSIONS = ['.ics', '.ics_', '.cal', '.ical', '.ifb', '.icalendar', '.vcs'];

export function webManifest(productName: string) {
  return {
    id: '/',
    name: productName,
    short_name: productName,
    description: 'Hold your rostered trips, offer them for swap and find swaps with other pilots.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    // The splash screen and the title bar in the theme's colours.
    background_color: BRAND_TOKENS.colorBgLayout,
    theme_color: BRAND_TOKENS.colorPrimary,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
    // Opening a calendar file with the installed app lands in the roster upload.
    file_handlers: [{ action: '/upload-roster', accept: { 'text/calendar': ROSTER_EXTENSIONS } }],
    // Sharing a file to the app POSTs it here; the service worker (public/sw.js) takes it.
    share_target: {
      action: '/share-roster',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', files: [{ name: 'roster', accept: ['text/calendar', ...ROSTER_EXTENSIONS] }] },
    },
  };
}
