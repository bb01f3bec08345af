/** Admin spec section 4, "Install prompt", and the constants of section 9. */
export const DISMISSED_KEY = 'pwa-install-dismissed';
export const RESHOW_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
export const IOS_AUTO_SHOW_MS = 5000;

/** Chromium's event; not in TypeScript's DOM library. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

/** Never dismissed, or the last 'Maybe Later' was more than 7 days ago. */
export function dismissalExpired(stored: string | null, now: number): boolean {
  if (stored === null) return true;
  const at = Number(stored);
  return !Number.isFinite(at) || now - at > RESHOW_AFTER_MS;
}

export function rememberDismissal(now: number): void {
  localStorage.setItem(DISMISSED_KEY, String(now));
}

export function isIos(navigatorLike: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> & { platform?: string }): boolean {
  // iPadOS Safari says it is a Mac; only the touch screen gives it away.
  return /iPad|iPhone|iPod/.test(navigatorLike.userAgent) || (navigatorLike.platform === 'MacIntel' && navigatorLike.maxTouchPoints > 1);
}

/** Already running from the home screen: nothing to install. */
export function isStandalone(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia('(display-mode: standalone)').matches;
}
