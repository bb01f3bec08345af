import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { followNetwork } from './api/online';
import { createIdbPersister, refetchRestoredOnMount } from './api/persist';
import { createQueryClient } from './api/queryClient';
import { registerServiceWorker } from './pwa/registerServiceWorker';
// antd's styles (see zeroRuntime in theme.tsx), before the app's own, which build on them.
import 'antd/dist/antd.css';
import './styles.css';

const queryClient = createQueryClient();
followNetwork(queryClient);
refetchRestoredOnMount(queryClient);
registerServiceWorker();

const root = createRoot(document.getElementById('root')!);
// A transition: the first render yields to the browser every few milliseconds (the page painted
// by index.html stays until it is done), so a slow phone is never frozen by it (issue 40). The
// stylesheet is applied a task after this module's evaluation: parsing it is a long step of its
// own, which on a phone held the main thread for twice as long with the evaluation before it.
setTimeout(() =>
  void appliedStylesheets().then(() =>
    startTransition(() =>
      root.render(
        <StrictMode>
          <App queryClient={queryClient} persister={createIdbPersister()} />
        </StrictMode>,
      ),
    ),
  ),
);

/**
 * The built app's stylesheet, which index.html only preloads so that its launch screen paints at
 * once (vite.config.ts, entryCssPlugin), applied before the app renders: never a screen without
 * its styles. Settles at once where there is none to apply (the dev server injects its styles).
 */
function appliedStylesheets(): Promise<unknown> {
  const preloads = document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"]');
  return Promise.all(
    [...preloads].map(
      (preload) =>
        new Promise<void>((resolve) => {
          const sheet = document.createElement('link');
          sheet.rel = 'stylesheet';
          // The preload's own mode, so the stylesheet is the response already on its way.
          sheet.crossOrigin = preload.crossOrigin;
          sheet.href = preload.href;
          // Unstyled is better than nothing at all should it fail.
          sheet.onload = sheet.onerror = () => resolve();
          document.head.append(sheet);
        }),
    ),
  );
}
