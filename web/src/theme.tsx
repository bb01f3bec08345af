import { theme, type ThemeConfig } from 'antd';
import type { MapToken, SeedToken } from 'antd/es/theme/interface';
import derivedTokens from 'virtual:antd-derived-tokens';
import { appThemeTokens } from './theme-tokens';

const DERIVED = new Map(derivedTokens);

/**
 * antd's default algorithm, answered from the build's list for the app's own themes (see
 * scripts/antd-theme.ts): on a phone, deriving the palettes was the longest step of the first screen.
 */
export function appAlgorithm(seed: SeedToken): MapToken {
  const derived = DERIVED.get(JSON.stringify(seed));
  return derived ? ({ ...derived } as unknown as MapToken) : theme.defaultAlgorithm(seed);
}

/**
 * The app's look: antd's tokens, set once here. Components read colours with `theme.useToken()`;
 * the stylesheet reads them as the CSS variables <ThemeVariables/> writes. No colour is written
 * anywhere else.
 */
export function appTheme(narrow: boolean): ThemeConfig {
  return {
    // Built, the app styles antd from its prebuilt stylesheet (main.tsx imports it, trimmed by
    // vite.config.ts) instead of writing styles at runtime: on a phone, working them out took
    // more of the first screen's time than rendering it. Tests and the dev server keep runtime
    // styles, which jsdom reads to tell a closed popup from an open one.
    zeroRuntime: import.meta.env.PROD,
    hashed: false,
    algorithm: appAlgorithm,
    token: appThemeTokens(narrow),
  };
}

/** The tokens styles.css uses, as `--app-*` variables on the page root (dialogs render outside #root). */
export function ThemeVariables() {
  const { token } = theme.useToken();
  const variables = {
    primary: token.colorPrimary,
    'primary-bg': token.colorPrimaryBg,
    'on-primary': token.colorTextLightSolid,
    page: token.colorBgLayout,
    surface: token.colorBgContainer,
    text: token.colorText,
    'text-muted': token.colorTextSecondary,
    border: token.colorBorderSecondary,
    'border-strong': token.colorBorder,
    'warning-bg': token.colorWarningBg,
    'warning-border': token.colorWarningBorder,
    error: token.colorError,
    'error-bg': token.colorErrorBg,
    'error-border': token.colorErrorBorder,
    info: token.colorInfo,
    'info-bg': token.colorInfoBg,
    'warning-strong': token.colorWarning,
    success: token.colorSuccessActive,
    'success-bg': token.colorSuccessBg,
    'success-border': token.colorSuccessBorderHover,
    // The brand's red: the end of the login page's sweep from purple, a liked crew link.
    accent: token.red7,
    'sweep-middle': token.purple7,
    // WhatsApp's own green is too light for white text; this one reads at 5.6:1.
    whatsapp: token.green8,
    shadow: token.boxShadowSecondary,
    'shadow-low': token.boxShadowTertiary,
  };
  const css = Object.entries(variables)
    .map(([name, value]) => `--app-${name}: ${value};`)
    .join(' ');
  // The base text antd's App used to set on its wrapper, for text outside antd's components.
  const text = `font-family: ${token.fontFamily}; font-size: ${token.fontSize}px; line-height: ${token.lineHeight};`;
  return <style>{`:root { ${css} } body { ${text} }`}</style>;
}
