import { feedbackApi } from './feedback';

interface ToastOptions {
  /** Stays until closed (the spec's sticky 'Password Reset'). */
  sticky?: boolean;
  /** Seconds, instead of the app's default (toastSeconds). */
  duration?: number;
}

/** The pilot app's toasts last 2-3 s (pilot spec section 9); the console's 5 s (admin spec section 9). */
export const PILOT_TOAST_SECONDS = 3;
export const ADMIN_TOAST_SECONDS = 5;

export function toastSeconds(pathname: string): number {
  return pathname === '/admin' || pathname.startsWith('/admin/') ? ADMIN_TOAST_SECONDS : PILOT_TOAST_SECONDS;
}

function show(kind: 'success' | 'error' | 'info' | 'warning', title: string, description?: string, options: ToastOptions = {}) {
  const duration = options.sticky ? 0 : (options.duration ?? toastSeconds(window.location.pathname));
  void feedbackApi().then(({ notification }) => notification[kind]({ title, description, duration, placement: 'top' }));
}

/** One toast at a time (the host sets maxCount 1): a newer one replaces the older. */
export const toast = {
  success: (title: string, description?: string, options?: ToastOptions) => show('success', title, description, options),
  error: (title: string, description?: string, options?: ToastOptions) => show('error', title, description, options),
  info: (title: string, description?: string, options?: ToastOptions) => show('info', title, description, options),
  warning: (title: string, description?: string, options?: ToastOptions) => show('warning', title, description, options),
};
