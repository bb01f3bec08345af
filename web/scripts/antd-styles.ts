/**
 * antd's components this app never shows, by their class prefix. The app runs antd without
 * runtime styles (`zeroRuntime` in src/theme.tsx) on antd's prebuilt stylesheet, which styles
 * every component (about 1 MB); the rules of these are left out of the build. None is used
 * inside a component the app does use. A component added to the app must come off this list.
 */
export const UNUSED_ANTD_COMPONENTS = [
  'anchor', 'avatar', 'badge', 'breadcrumb', 'carousel', 'cascader', 'color-picker', 'drawer', 'float-btn',
  'image', 'masonry', 'mentions', 'rate', 'ribbon', 'slider', 'splitter', 'steps', 'timeline',
  'tour', 'transfer', 'tree', 'tree-select', 'upload', 'watermark',
];

/** A class of a left-out component, or of one of its parts (`.ant-slider`, `.ant-slider-handle`), never `.ant-ratings`. */
const UNUSED_CLASS = new RegExp(`\\.ant-(?:${UNUSED_ANTD_COMPONENTS.join('|')})(?!\\w)`);

/** Splits CSS text into its top-level blocks (a rule, or an at-rule with the blocks inside it). */
function topLevelBlocks(css: string): string[] {
  const blocks: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < css.length; index += 1) {
    const char = css[index];
    if (char === '{') depth += 1;
    else if (char === '}' && --depth === 0) {
      blocks.push(css.slice(start, index + 1));
      start = index + 1;
    }
  }
  return blocks;
}

/** antd's stylesheet without the rules of UNUSED_ANTD_COMPONENTS (a rule stays if any of its selectors is for something else). */
export function withoutUnusedAntdRules(css: string): string {
  const keep = (block: string): string => {
    const open = block.indexOf('{');
    const head = block.slice(0, open).trim();
    if (head.startsWith('@keyframes') || head.startsWith('@font-face')) return block;
    if (head.startsWith('@')) {
      const inner = topLevelBlocks(block.slice(open + 1, -1)).map(keep).join('');
      return inner ? `${head}{${inner}}` : '';
    }
    return head.split(',').some((selector) => !UNUSED_CLASS.test(selector)) ? block : '';
  };
  return topLevelBlocks(css).map(keep).join('');
}
