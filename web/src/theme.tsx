import { theme, type ThemeConfig } from 'antd';
import { BRAND_TOKENS } from './theme-tokens';

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
    token: {
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
    },
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
