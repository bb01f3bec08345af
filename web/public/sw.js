/*
 * CrewSwap's service worker, served at /sw.js with Cache-Control: no-cache so a new version is
 * picked up on the next visit. It does four things:
 *  - push: shows the notification the push-sender sent (proto PushPayload) and, on click, opens
 *    the place in the app it names, in an open window if there is one;
 *  - offline shell: pages are fetched from the network first and fall back to the last app shell;
 *    the hashed build assets are kept at install (the list the build writes) and once fetched
 *    (they never change under the same name); the data comes from the page's own kept cache;
 *  - share target: a roster file shared to the installed app arrives as POST /share-roster, which
 *    the server does not take; it is kept for the page (Cache Storage, since a worker has no
 *    session storage) and the browser is sent on to GET /share-roster;
 *  - it never touches /api/: calls and the event stream always go to the server.
 * Plain JavaScript on purpose: it is served as it is, outside the app's bundle.
 */
const SHELL_CACHE = 'crewswap-shell-v1';
// Written by the build (web/vite.config.ts): the pilot screens' scripts and styles.
const PRECACHE_LIST_URL = '/sw-precache.json';
const ASSET_CACHE = 'crewswap-assets-v1';
// Shared with the page: web/src/features/roster/pendingRoster.ts.
const SHARED_FILE_CACHE = 'crewswap-shared-roster';
const SHARED_FILE_URL = '/share-roster/pending-file';
const SHELL_URL = '/';
const KEPT_CACHES = [SHELL_CACHE, ASSET_CACHE, SHARED_FILE_CACHE];
const ASSET_IN_HTML = /(?:src|href)="(\/assets\/[^"]+)"/g;
const PRODUCT_NAME = 'CrewSwap';

/** Fetches the app shell and the assets it names, so the app opens offline after the first visit. */
async function cacheShell() {
  const response = await fetch(SHELL_URL, { cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok) return;
  const html = await response.clone().text();
  const shell = await caches.open(SHELL_CACHE);
  await shell.put(SHELL_URL, response);
  const assets = [...html.matchAll(ASSET_IN_HTML)].map((match) => match[1]);
  // The lazy screens too: a pilot offline may open a dialog they had not opened online.
  const listed = await fetch(PRECACHE_LIST_URL, { cache: 'no-store' })
    .then((answer) => (answer.ok ? answer.json() : []))
    .catch(() => []);
  assets.push(...listed.filter((url) => typeof url === 'string' && url.startsWith('/assets/')));
  const assetCache = await caches.open(ASSET_CACHE);
  await Promise.all(
    ['/manifest.webmanifest', '/icons/icon-192.png', ...assets].map((url) =>
      assetCache.add(url).catch((error) => console.warn('[sw] not cached', url, error)),
    ),
  );
}

self.addEventListener('install', (event) => {
  event.waitUntil(cacheShell().catch((error) => console.warn('[sw] shell not cached', error)));
  // A new worker takes over at once: it only adds behaviour, and old pages keep working with it.
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => !KEPT_CACHES.includes(name)).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

async function receiveSharedFile(request) {
  try {
    const form = await request.formData();
    const file = [...form.values()].find((value) => typeof value !== 'string');
    if (file) {
      const cache = await caches.open(SHARED_FILE_CACHE);
      await cache.put(
        SHARED_FILE_URL,
        new Response(file, {
          headers: {
            'content-type': file.type || 'text/calendar',
            'x-file-name': encodeURIComponent(file.name),
            'x-last-modified': String(file.lastModified || Date.now()),
          },
        }),
      );
    }
  } catch (error) {
    console.warn('[sw] the shared file could not be read', error);
  }
  return Response.redirect('/share-roster', 303);
}

async function networkFirstPage(request) {
  try {
    const response = await fetch(request);
    if (response.ok && response.headers.get('content-type')?.includes('text/html')) {
      const shell = await caches.open(SHELL_CACHE);
      await shell.put(SHELL_URL, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await caches.match(SHELL_URL);
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirstAsset(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(ASSET_CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.method === 'POST' && url.pathname === '/share-roster') {
    event.respondWith(receiveSharedFile(request));
    return;
  }
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate') event.respondWith(networkFirstPage(request));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(cacheFirstAsset(request));
});

/** The push-sender's payload (proto PushPayload); a bare text push still shows something. */
function readPush(data) {
  if (!data) return { title: PRODUCT_NAME, body: '', url: '/', tag: undefined };
  try {
    const payload = data.json();
    return {
      title: typeof payload.title === 'string' ? payload.title : PRODUCT_NAME,
      body: typeof payload.body === 'string' ? payload.body : '',
      url: typeof payload.url === 'string' && payload.url.startsWith('/') ? payload.url : '/',
      tag: typeof payload.tag === 'string' ? payload.tag : undefined,
      kind: payload.kind,
    };
  } catch {
    return { title: PRODUCT_NAME, body: data.text(), url: '/', tag: undefined };
  }
}

self.addEventListener('push', (event) => {
  const push = readPush(event.data);
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(push.title, {
        body: push.body,
        tag: push.tag,
        icon: '/icons/icon-192.png',
        badge: '/icons/badge-96.png',
        data: { url: push.url, kind: push.kind },
      }),
      // An open app's bell counts the alert at once (web/src/api/liveUpdates.ts).
      self.clients.matchAll({ type: 'window' }).then((windows) => windows.forEach((client) => client.postMessage({ type: 'push', kind: push.kind }))),
    ]),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        // focus() may be refused (no user activation); the window is still taken to the place.
        const focused = await open.focus().catch(() => open);
        return (focused ?? open).navigate(target).catch(() => self.clients.openWindow(target));
      }
      return self.clients.openWindow(target);
    })(),
  );
});
