import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createQueryClient } from './api/queryClient';
import { registerServiceWorker } from './pwa/registerServiceWorker';
import './styles.css';

const queryClient = createQueryClient();
registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
