import { describe, expect, it } from 'vitest';
import { entryStylesheets, INLINE_CSS_MAX } from '../scripts/entry-css';

const page = '<head><link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head>';

describe("the entry's stylesheet in index.html", () => {
  it('is written into the page when small, so the launch screen needs nothing else to paint', () => {
    const html = entryStylesheets(page, { 'assets/index-abc.css': { type: 'asset', source: 'body{margin:0}' } });
    expect(html).toBe('<head><style>body{margin:0}</style></head>');
  });

  it('is only preloaded when large (antd), never a stylesheet that holds back the first paint', () => {
    const html = entryStylesheets(page, { 'assets/index-abc.css': { type: 'asset', source: 'a'.repeat(INLINE_CSS_MAX + 1) } });
    expect(html).toBe('<head><link rel="preload" as="style" fetchpriority="low" crossorigin href="/assets/index-abc.css"></head>');
  });

  it('is left alone when the build has no such file', () => {
    expect(entryStylesheets(page, {})).toBe(page);
  });
});
