/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { withoutUnusedAntdRules } from './scripts/antd-styles';
import { antdDerivedTokensPlugin } from './scripts/antd-theme';
import { entryStylesheets } from './scripts/entry-css';
import { webManifest } from './src/pwa/manifest';
import { BRAND_TOKENS } from './src/theme-tokens';

// The dev server talks to the real gateway; API_TARGET points it elsewhere (e.g. a stand-in).
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8080';
// The product name shown before the server's /api/auth/config answers (and in <title>).
process.env.VITE_PRODUCT_NAME ||= 'CrewSwap';
// index.html's theme-color meta: the theme's primary colour, not a literal of its own.
process.env.VITE_THEME_COLOR = BRAND_TOKENS.colorPrimary;

const MANIFEST = 'manifest.webmanifest';

/** dist/manifest.webmanifest named for the product of this build; the dev server answers it too. */
function manifestPlugin(): Plugin {
  const source = () => JSON.stringify(webManifest(process.env.VITE_PRODUCT_NAME ?? 'CrewSwap'), null, 2);
  return {
    name: 'crewswap-web-manifest',
    configureServer(server) {
      server.middlewares.use(`/${MANIFEST}`, (_request, response) => {
        response.setHeader('Content-Type', 'application/manifest+json');
        response.end(source());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: MANIFEST, source: source() });
    },
  };
}

/**
 * dist/sw-precache.json: every script and stylesheet the pilot's screens may load (the entry, its
 * lazy dialogs and pages, not the admin console), for the service worker to keep at install, so
 * the installed app opens offline even on screens it had not opened yet.
 */
function precacheListPlugin(): Plugin {
  return {
    name: 'crewswap-precache-list',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (!chunk || chunk.type !== 'chunk' || files.has(fileName)) return;
        if (chunk.facadeModuleId?.includes('/features/admin/')) return;
        files.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
        for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
      };
      for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk' && chunk.isEntry) visit(chunk.fileName);
      const urls = [...files].sort().map((file) => `/${file}`);
      this.emitFile({ type: 'asset', fileName: 'sw-precache.json', source: JSON.stringify(urls) });
    },
  };
}

/** The entry's stylesheet in index.html: written in when small, preloaded when large (scripts/entry-css.ts). */
function entryCssPlugin(): Plugin {
  return {
    name: 'crewswap-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, { bundle }) => entryStylesheets(html, bundle as Parameters<typeof entryStylesheets>[1]),
    },
  };
}

/** antd's prebuilt stylesheet, as main.tsx imports it, without the components the app never shows. */
function antdStylesPlugin(): Plugin {
  return {
    name: 'crewswap-antd-styles',
    transform(code, id) {
      if (!/[\\/]antd[\\/]dist[\\/]antd\.css$/.test(id)) return null;
      return { code: withoutUnusedAntdRules(code), map: null };
    },
  };
}

/**
 * antd's ConfigProvider imports the provider behind `tooltip.unique` (one shared tooltip) whether
 * or not it is asked for, and with it the whole popup engine (about 5 KB gzipped of the first
 * load). The app never asks for it: the build gives ConfigProvider a stand-in that says so if that
 * ever changes. Tooltips themselves (the console's) load the real provider with their own code.
 */
function noUniqueTooltipsPlugin(): Plugin {
  const standIn = '\0crewswap-no-unique-tooltips';
  return {
    name: 'crewswap-no-unique-tooltips',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '../tooltip/UniqueProvider' && importer && /[\\/]antd[\\/]es[\\/]config-provider[\\/]index\.js$/.test(importer)) return standIn;
      return null;
    },
    load(id) {
      if (id !== standIn) return null;
      return `export default function UniqueProvider() { throw new Error("ConfigProvider's tooltip.unique is left out of the build (web/vite.config.ts)"); }`;
    },
  };
}

export default defineConfig({
  plugins: [react(), antdStylesPlugin(), antdDerivedTokensPlugin(), noUniqueTooltipsPlugin(), manifestPlugin(), precacheListPlugin(), entryCssPlugin()],
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    // scripts/bundle-budget.mjs reads the manifest to find what the first load of / fetches.
    manifest: true,
    // Every browser the app supports preloads modules itself.
    modulePreload: {
      polyfill: false,
      // A lazy screen's scripts are not preloaded by links the app appends: on a phone, appending
      // them was a long task of its own as each screen opened (Lighthouse's trips page, issue 57).
      // The browser fetches a chunk's imports itself, all at once, as it reads the chunk. Nor does
      // index.html preload the entry's: a modulepreload compiles its module as it arrives, and the
      // page measured slower with them (`make lighthouse`: trips 93 with, 98 without; the cold load
      // to the login form 701 against 554 ms).
      resolveDependencies: (_file, dependencies) => dependencies.filter((dependency) => dependency.endsWith('.css')),
    },
    // WEB_SOURCEMAP=1 when profiling a build: a CPU profile's frames then map back to the source.
    sourcemap: process.env.WEB_SOURCEMAP === '1',
    rolldownOptions: {
      treeshake: {
        // These packages declare no `sideEffects`, so unused parts of them (antd's form engine,
        // the proto barrel's rules) stayed in the first load; their modules only define things.
        moduleSideEffects: [
          { test: /node_modules[\\/](@rc-component|@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors))[\\/].*\.js$/, sideEffects: false },
          { test: /proto[\\/]src[\\/].*\.ts$/, sideEffects: false },
        ],
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./test/setup.ts'],
    // Rendering antd in jsdom takes seconds when the machine is shared; a slow test is not a failure.
    testTimeout: 30_000,
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    css: false,
  },
});
