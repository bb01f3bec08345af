import type { App } from 'antd';

/** antd's toast and dialog APIs, as `App.useApp()` gives them inside <FeedbackHost/>. */
export type FeedbackApi = Pick<ReturnType<typeof App.useApp>, 'notification' | 'modal'>;

// The host (antd's App with its notification and modal code) is a chunk of its own, loaded on
// the first toast or dialog: the login form does not wait for code it may never use.
let api: FeedbackApi | undefined;
let waiting: Array<(api: FeedbackApi) => void> = [];
let requestHost: (() => void) | undefined;

/** The APIs, once the host has loaded (asking for it the first time). */
export function feedbackApi(): Promise<FeedbackApi> {
  if (api) return Promise.resolve(api);
  requestHost?.();
  return new Promise((resolve) => waiting.push(resolve));
}

/** Called by the host when it has mounted (and with undefined when it unmounts). */
export function setFeedbackApi(next: FeedbackApi | undefined): void {
  api = next;
  if (!next) return;
  const ready = waiting;
  waiting = [];
  for (const resolve of ready) resolve(next);
}

/** The app shell says how to load the host; asks made before that are answered once it is set. */
export function onFeedbackRequested(load: () => void): () => void {
  requestHost = load;
  if (waiting.length > 0) load();
  return () => {
    if (requestHost === load) requestHost = undefined;
  };
}
