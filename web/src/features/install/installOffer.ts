import { isStandalone, type BeforeInstallPromptEvent } from './installRules';

/**
 * The browser's offer to install the app. It may come before the first screen has rendered, so it
 * is kept from the moment the app's code loads; the install dialog's own code loads only once
 * there is an offer (App.tsx), not on every first load.
 */
let offer: BeforeInstallPromptEvent | null = null;
const waiting = new Set<(event: BeforeInstallPromptEvent) => void>();
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    if (isStandalone()) return;
    // Keep the browser's own banner back: the dialog says why installing helps.
    event.preventDefault();
    offer = event as BeforeInstallPromptEvent;
    for (const notify of waiting) notify(offer);
  });
}

/** The offer not yet used, if any. */
export function pendingInstallOffer(): BeforeInstallPromptEvent | null {
  return offer;
}

/** The browser's prompt can be used once. */
export function forgetInstallOffer(): void {
  offer = null;
}

/** Calls `notify` with each offer the browser makes from now on; answers the unsubscribe. */
export function onInstallOffer(notify: (event: BeforeInstallPromptEvent) => void): () => void {
  waiting.add(notify);
  return () => waiting.delete(notify);
}
