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
// by index.html stays until it is done), so a slow phone is never frozen by it (issue 40).
startTransition(() =>
  root.render(
    <StrictMode>
      <App queryClient={queryClient} persister={createIdbPersister()} />
    </StrictMode>,
  ),
);
