import { SERVICE_WORKER_PATH } from '@crewswap/proto/browser';

/**
 * Registers /sw.js (push, the offline shell, shared roster files) once the page has loaded, so
 * the worker's first caching does not compete with the app's own first requests.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () =>
    navigator.serviceWorker.register(SERVICE_WORKER_PATH, { scope: '/' }).catch((error: unknown) => console.warn('Service worker not registered', error));
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
