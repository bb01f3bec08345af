import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import { appThemeTokens } from '../src/theme-tokens';

/**
 * antd's derived tokens (colour palettes, sizes: about 450 values) for the app's theme, worked out
 * at build time with antd's own default algorithm. In the browser, working them out took the
 * longest single step of the first screen (20 to 55 ms on this machine's Chromium before any
 * slowdown, four times that on a phone); src/theme.tsx looks them up instead and runs antd's
 * algorithm only for a theme this list does not hold.
 */
export const DERIVED_TOKENS_MODULE = 'virtual:antd-derived-tokens';

const require = createRequire(import.meta.url);

/** `[seed, derived]` for the phone and the desktop theme; the seed as antd hands it to an algorithm, as JSON. */
export function derivedTokens(): Array<[string, Record<string, unknown>]> {
  const { default: defaultAlgorithm } = require('antd/lib/theme/themes/default') as { default: (seed: object) => Record<string, unknown> };
  const { default: defaultSeed } = require('antd/lib/theme/themes/seed') as { default: object };
  return [true, false].map((narrow) => {
    // What antd's ConfigProvider hands the algorithm: its default seed with the app's tokens over it, in that order.
    const seed = { ...defaultSeed, ...appThemeTokens(narrow) };
    return [JSON.stringify(seed), defaultAlgorithm(seed)];
  });
}

export function antdDerivedTokensPlugin(): Plugin {
  const resolved = `\0${DERIVED_TOKENS_MODULE}`;
  return {
    name: 'crewswap-antd-derived-tokens',
    resolveId: (id) => (id === DERIVED_TOKENS_MODULE ? resolved : null),
    // As JSON text: a browser reads JSON.parse's argument faster than the same object as code.
    load: (id) => (id === resolved ? `export default JSON.parse(${JSON.stringify(JSON.stringify(derivedTokens()))});` : null),
  };
}
