import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UNUSED_ANTD_COMPONENTS, withoutUnusedAntdRules } from '../scripts/antd-styles';

/** antd's components whose styles the trimmed stylesheet may leave out, by the class prefix each styles with. */
const PREFIX_OF: Record<string, string> = {
  Anchor: 'anchor', Avatar: 'avatar', Badge: 'badge', Breadcrumb: 'breadcrumb', Calendar: 'picker', Carousel: 'carousel',
  Cascader: 'cascader', ColorPicker: 'color-picker', DatePicker: 'picker', Drawer: 'drawer', FloatButton: 'float-btn',
  Image: 'image', Masonry: 'masonry', Mentions: 'mentions', Rate: 'rate', Slider: 'slider', Splitter: 'splitter',
  Steps: 'steps', TimePicker: 'picker', Timeline: 'timeline', Tour: 'tour', Transfer: 'transfer', Tree: 'tree',
  TreeSelect: 'tree-select', Upload: 'upload', Watermark: 'watermark',
};

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("antd's stylesheet as the app is built with it", () => {
  it('leaves out the rules of components the app never shows, inside media queries too, and keeps the rest', () => {
    const css =
      '.ant-btn{color:red}.ant-slider{color:blue}.ant-slider-rail .ant-slider-handle{margin:0}' +
      '.ant-upload,.ant-select{display:block}.ant-tree-select-dropdown{top:0}' +
      '@media (max-width: 575px){.ant-slider-mark{flex-direction:column}.ant-form-item{margin:0}}' +
      '@media (min-width: 576px){.ant-steps{gap:0}}@keyframes antZoomIn{0%{opacity:0}100%{opacity:1}}';
    expect(withoutUnusedAntdRules(css)).toBe(
      '.ant-btn{color:red}.ant-upload,.ant-select{display:block}' +
        '@media (max-width: 575px){.ant-form-item{margin:0}}@keyframes antZoomIn{0%{opacity:0}100%{opacity:1}}',
    );
  });

  it('does not leave out a class that only starts like a left-out component', () => {
    expect(withoutUnusedAntdRules('.ant-ratings{color:red}.ant-color-picker-trigger{color:red}.ant-tree{color:red}')).toBe('.ant-ratings{color:red}');
  });

  it('keeps the styles of every antd component the app imports', () => {
    const imported = new Set<string>();
    for (const file of sources(join(__dirname, '..', 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g)) {
        for (const name of match[1]!.split(',')) imported.add(name.replace(/\btype\b/, '').split(/\bas\b/)[0]!.trim());
      }
    }
    const leftOut = [...imported].filter((name) => PREFIX_OF[name] && UNUSED_ANTD_COMPONENTS.includes(PREFIX_OF[name]!));
    expect(leftOut).toEqual([]);
    // The check reads real imports.
    expect(imported).toContain('Button');
  });
});
