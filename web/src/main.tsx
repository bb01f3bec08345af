import { hashKey } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { wasSignedIn } from './api/client';
import { followNetwork } from './api/online';
import { createIdbPersister, refetchRestoredOnMount } from './api/persist';
import { queryKeys } from './api/keys';
import { createQueryClient } from './api/queryClient';
import { tripsQuery } from './api/tripsQuery';
import { registerServiceWorker } from './pwa/registerServiceWorker';
import './styles.css';

const queryClient = createQueryClient();
followNetwork(queryClient);
refetchRestoredOnMount(queryClient);
registerServiceWorker();

/**
 * Asks for the trips page's code and the trips together, as soon as a pilot is (or was last
 * time) signed in, instead of one after the other once the page has mounted (issue 40).
 */
function warmTripsPage(): void {
  void import('./features/trips/TripsPage');
  void queryClient.prefetchQuery(tripsQuery);
}

// A pilot signed in last time most likely still is: the trips page's code and the trips are asked
// for now, beside the check of who is signed in. A session that has ended meanwhile gets the 401
// handling the check would give it anyway.
if (wasSignedIn()) warmTripsPage();
// Otherwise as soon as the check finds a pilot (a session the app did not know of).
const currentPilot = hashKey(queryKeys.currentPilot);
const stopWatching = queryClient.getQueryCache().subscribe(({ query }) => {
  if (query.queryHash !== currentPilot || !query.state.data) return;
  stopWatching();
  warmTripsPage();
});

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
