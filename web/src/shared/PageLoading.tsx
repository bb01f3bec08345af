import './PageLoading.css';

/**
 * A page waiting for its data or code: a spinner drawn in CSS rather than antd's Spin, because it
 * is on the first screen, whose code is kept small (web/scripts/bundle-budget.mjs).
 */
export function PageLoading({ text }: { text?: string }) {
  return (
    <div className="page-center" role="status" aria-label={text ?? 'Loading'}>
      <span className="page-spinner" aria-hidden="true" />
      {text && <span>{text}</span>}
    </div>
  );
}
