/**
 * The brand's seed colours, apart from antd so the build (vite.config.ts) can read them too: the
 * page's `theme-color` meta is the primary colour, painted before any script runs.
 */
export const BRAND_TOKENS = {
  colorPrimary: '#3b2b8f',
  colorBgLayout: '#f4f3fa',
} as const;
