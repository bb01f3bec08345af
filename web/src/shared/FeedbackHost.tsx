import { App as AntApp } from 'antd';
import { useEffect, useRef, type RefObject } from 'react';
import { setFeedbackApi, type FeedbackApi } from './feedback';

/** Admin spec section 4, Toasts: 'swipe to the right, threshold 50 px'; 'viewport label 'Notifications (F8)''. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_VIEWPORT_LABEL = 'Notifications (F8)';
export const TOAST_HOTKEY = 'F8';

function Bridge({ viewport }: { viewport: RefObject<HTMLElement | null> }) {
  const { notification, modal } = AntApp.useApp();
  useEffect(() => {
    setFeedbackApi({ notification, modal });
    return () => setFeedbackApi(undefined);
  }, [notification, modal]);
  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const stopSwipes = swipeToDismiss(element, notification);
    // F8 takes a keyboard or screen reader user to the toast (its close button is the next Tab).
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== TOAST_HOTKEY) return;
      event.preventDefault();
      element.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      stopSwipes();
      window.removeEventListener('keydown', onKey);
    };
  }, [notification, viewport]);
  return null;
}

/**
 * A toast follows the finger to the right and is dismissed when let go more than 50 px from where
 * it was touched; less, it slides back. `translate` moves it without touching antd's `transform`.
 */
function swipeToDismiss(viewport: HTMLElement, notification: FeedbackApi['notification']): () => void {
  let swipe: { notice: HTMLElement; pointer: number; startX: number; dx: number } | undefined;
  const down = (event: PointerEvent) => {
    const notice = (event.target as Element).closest<HTMLElement>('.ant-notification-notice');
    if (notice && !(event.target as Element).closest('button, a')) swipe = { notice, pointer: event.pointerId, startX: event.clientX, dx: 0 };
  };
  const move = (event: PointerEvent) => {
    if (!swipe || event.pointerId !== swipe.pointer) return;
    swipe.dx = Math.max(0, event.clientX - swipe.startX);
    swipe.notice.style.translate = `${swipe.dx}px 0`;
  };
  const up = (event: PointerEvent) => {
    if (!swipe || event.pointerId !== swipe.pointer) return;
    const { notice, dx } = swipe;
    swipe = undefined;
    // At most one toast is shown, so dismissing every toast dismisses this one.
    if (dx > TOAST_SWIPE_THRESHOLD_PX) notification.destroy();
    else notice.style.translate = '';
  };
  viewport.addEventListener('pointerdown', down);
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', up);
  return () => {
    viewport.removeEventListener('pointerdown', down);
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', up);
  };
}

/**
 * antd's App for toasts (one at a time, at the top) and confirm dialogs; see feedback.ts. The
 * toasts are shown in a labelled region ('Notifications (F8)') that F8 focuses.
 */
export default function FeedbackHost() {
  const viewport = useRef<HTMLElement>(null);
  return (
    <>
      <section ref={viewport} className="toast-viewport" aria-label={TOAST_VIEWPORT_LABEL} tabIndex={-1} />
      <AntApp component={false} notification={{ maxCount: 1, placement: 'top', getContainer: () => viewport.current ?? document.body }} message={{ maxCount: 1 }}>
        <Bridge viewport={viewport} />
      </AntApp>
    </>
  );
}
