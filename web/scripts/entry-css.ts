/**
 * The entry's stylesheet without holding back the first paint. A small one is written into
 * index.html (no stylesheet to fetch first: one round trip less on a phone before anything
 * shows). A large one (antd's, about 75 KB gzipped) is only asked for early, as a preload, and
 * src/main.tsx applies it before the app renders: as a stylesheet link it kept the launch screen
 * from painting until it had arrived, which on a slow phone network was the longest wait before
 * anything showed (Lighthouse: first paint 2.8 s on the login page). The file is emitted either
 * way, for the service worker's list.
 */
export function entryStylesheets(html: string, bundle: Record<string, { type: string; source?: string | Uint8Array }> | undefined): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (link, fileName: string) => {
    const asset = bundle?.[fileName];
    if (asset?.type !== 'asset') return link;
    const source = String(asset.source);
    // Low priority: the launch screen does not need it, and the app needs its scripts first (it
    // applies the stylesheet once they have run), so they go ahead of it on a slow connection.
    if (source.length > INLINE_CSS_MAX) return `<link rel="preload" as="style" fetchpriority="low" crossorigin href="/${fileName}">`;
    return `<style>${source}</style>`;
  });
}

/** Larger than this, the stylesheet is preloaded instead of written into the page. */
export const INLINE_CSS_MAX = 32 * 1024;
