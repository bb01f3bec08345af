import { render } from '@testing-library/react';
import { ConfigProvider, theme } from 'antd';
import { appAlgorithm, appTheme } from '../src/theme';
import { appThemeTokens } from '../src/theme-tokens';

/** What a component reads from the theme: the token antd works out from the app's theme. */
function tokenOf(narrow: boolean): Record<string, unknown> {
  let read: Record<string, unknown> = {};
  function Reader() {
    read = theme.useToken().token as unknown as Record<string, unknown>;
    return null;
  }
  render(
    <ConfigProvider theme={appTheme(narrow)}>
      <Reader />
    </ConfigProvider>,
  );
  return read;
}

describe("the app's theme, derived at build time", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([true, false])('gives what antd derives itself from the same seed (phone: %s), without running its algorithm', (narrow) => {
    const seed = { ...theme.defaultSeed, ...appThemeTokens(narrow) };
    const expected = theme.defaultAlgorithm(seed);
    const derive = vi.spyOn(theme, 'defaultAlgorithm');
    expect(appAlgorithm(seed)).toEqual(expected);
    expect(derive).not.toHaveBeenCalled();
  });

  it("is what antd's ConfigProvider uses: the brand's colour and the phone's 44 px controls reach the components", () => {
    const derive = vi.spyOn(theme, 'defaultAlgorithm');
    const token = tokenOf(true);
    expect(token.colorPrimary).toBe('#3b2b8f');
    expect(token.controlHeight).toBe(44);
    expect(token.colorPrimaryBg).toMatch(/^#[0-9a-f]{6}$/);
    expect(derive).not.toHaveBeenCalled();
  });

  it('still derives a theme the build did not list, as antd would', () => {
    const seed = { ...theme.defaultSeed, colorPrimary: '#00aa00' };
    expect(appAlgorithm(seed)).toEqual(theme.defaultAlgorithm(seed));
  });
});
