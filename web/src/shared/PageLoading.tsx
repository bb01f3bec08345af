import { useEffect, useState } from 'react';
import './PageLoading.css';

/**
 * How long a wait goes without a spinner: an answer that comes sooner (most, on a working
 * network) shows none flashing by, as antd's Spin `delay`, and starts no animation while the
 * first screen is still loading.
 */
export const SPINNER_DELAY_MS = 400;

/**
 * A page waiting for its data or code: a spinner drawn in CSS rather than antd's Spin, because it
 * is on the first screen, whose code is kept small (web/scripts/bundle-budget.mjs). Its place is
 * kept while it waits to show, so nothing moves when it does.
 */
export function PageLoading({ text }: { text?: string }) {
  const [spinning, setSpinning] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSpinning(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="page-center" role="status" aria-label={text ?? 'Loading'}>
      <span className={spinning ? 'page-spinner page-spinner-shown' : 'page-spinner'} aria-hidden="true" />
      {text && <span>{text}</span>}
    </div>
  );
}
