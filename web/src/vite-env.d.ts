/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_PRODUCT_NAME?: string;
  readonly VITE_THEME_COLOR?: string;
}

/** antd's derived tokens for the app's themes, `[seed as JSON, derived]` (scripts/antd-theme.ts). */
declare module 'virtual:antd-derived-tokens' {
  const derivedTokens: Array<[string, Record<string, unknown>]>;
  export default derivedTokens;
}
