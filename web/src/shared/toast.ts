import { feedbackApi } from './feedback';

interface ToastOptions {
  /** Stays until closed (the spec's sticky 'Password Reset'). */
  sticky?: boolean;
  /** Seconds; the spec keeps toasts 2-3 s, errors a little longer so they can be read. */
  duration?: number;
}

function show(kind: 'success' | 'error' | 'info' | 'warning', title: string, description?: string, options: ToastOptions = {}) {
  const duration = options.sticky ? 0 : (options.duration ?? (kind === 'error' || kind === 'warning' ? 5 : 3));
  void feedbackApi().then(({ notification }) => notification[kind]({ title, description, duration, placement: 'top' }));
}

/** One toast at a time (the host sets maxCount 1): a newer one replaces the older. */
export const toast = {
  success: (title: string, description?: string, options?: ToastOptions) => show('success', title, description, options),
  error: (title: string, description?: string, options?: ToastOptions) => show('error', title, description, options),
  info: (title: string, description?: string, options?: ToastOptions) => show('info', title, description, options),
  warning: (title: string, description?: string, options?: ToastOptions) => show('warning', title, description, options),
};
