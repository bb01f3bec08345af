import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { followNetwork } from './api/online';
import { createIdbPersister, refetchRestoredOnMount } from './api/persist';
import { createQueryClient } from './api/queryClient';
import { registerServiceWorker } from './pwa/registerServiceWorker';
import './styles.css';

const queryClient = createQueryClient();
followNetwork(queryClient);
refetchRestoredOnMount(queryClient);
registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} persister={createIdbPersister()} />
  </StrictMode>,
);
