/**
 * The brand's seed colours, apart from antd so the build (vite.config.ts) can read them too: the
 * page's `theme-color` meta is the primary colour, painted before any script runs.
 */
export const BRAND_TOKENS = {
  colorPrimary: '#3b2b8f',
  colorBgLayout: '#f4f3fa',
} as const;

/**
 * The tokens the app sets on antd's theme (src/theme.tsx), here so the build can work out antd's
 * derived tokens from them ahead of time (scripts/antd-theme.ts).
 */
export function appThemeTokens(narrow: boolean) {
  return {
    colorPrimary: BRAND_TOKENS.colorPrimary,
    colorLink: BRAND_TOKENS.colorPrimary,
    colorBgLayout: BRAND_TOKENS.colorBgLayout,
    // Manage Trip's backgrounds: kept (green), offered (red), neither (blue).
    colorSuccessBg: '#f0fbe8',
    colorErrorBg: '#fff0ef',
    colorInfoBg: '#eaf4ff',
    borderRadius: 8,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    // Touch targets of at least 44 px on phones.
    controlHeight: narrow ? 44 : 36,
    controlHeightLG: narrow ? 48 : 42,
    controlHeightSM: narrow ? 44 : 28,
  };
}
