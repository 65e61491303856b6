import { afterEach, expect, test, vi } from 'vitest';
import { loadThemeId } from './themeStorage';
import { defaultThemeId, resolveThemeId, THEME_IDS, THEMES } from './themes';

afterEach(() => {
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

function prefersDark(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: dark && query.includes('dark') }));
}

test('there are five themes, all Inter at 14 px', () => {
  expect(THEME_IDS).toEqual(['lightRed', 'lightBlue', 'darkRed', 'darkGray', 'darkBlue']);
  for (const id of THEME_IDS) {
    expect(THEMES[id].config.token?.fontSize).toBe(14);
    expect(THEMES[id].config.token?.fontFamily).toMatch(/^'Inter Variable', Inter/);
  }
});

test('the default follows the system: darkBlue when it prefers dark, else lightBlue', () => {
  expect(defaultThemeId(true)).toBe('darkBlue');
  expect(defaultThemeId(false)).toBe('lightBlue');
  prefersDark(true);
  expect(loadThemeId()).toBe('darkBlue');
  prefersDark(false);
  expect(loadThemeId()).toBe('lightBlue');
});

test('a stored theme wins; an invalid one is reset to the default', () => {
  prefersDark(true);
  window.localStorage.setItem('loupe.theme', 'darkGray');
  expect(loadThemeId()).toBe('darkGray');
  window.localStorage.setItem('loupe.theme', 'neonPink');
  expect(loadThemeId()).toBe('darkBlue');
  expect(window.localStorage.getItem('loupe.theme')).toBe('darkBlue');
  expect(resolveThemeId(null, false)).toBe('lightBlue');
});
