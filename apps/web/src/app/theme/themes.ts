// The five themes of docs/product.md, Shell §1 as antd theme configs: Inter at 14 px everywhere.
import { theme as antdTheme, type ThemeConfig } from 'antd';

export const THEME_IDS = ['lightRed', 'lightBlue', 'darkRed', 'darkGray', 'darkBlue'] as const;
export type ThemeId = (typeof THEME_IDS)[number];

export const FONT_FAMILY =
  "'Inter Variable', Inter, -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, sans-serif";

export interface ThemeDefinition {
  id: ThemeId;
  label: string;
  dark: boolean;
  config: ThemeConfig;
  /** The navigation's own background, a shade apart from the page. */
  navBackground: string;
  /** Where the login splash gradient ends, a deep shade of the primary colour. */
  splashEnd: string;
}

const base = { fontFamily: FONT_FAMILY, fontSize: 14, borderRadius: 6, wireframe: false };

function light(id: ThemeId, label: string, primary: string, splashEnd: string): ThemeDefinition {
  const nav = '#ffffff';
  return {
    id,
    label,
    dark: false,
    navBackground: nav,
    splashEnd,
    config: {
      algorithm: antdTheme.defaultAlgorithm,
      token: { ...base, colorPrimary: primary, colorInfo: primary, colorBgLayout: '#f5f6f8' },
      components: { Layout: { siderBg: nav, headerBg: '#ffffff', bodyBg: '#f5f6f8' } },
    },
  };
}

function dark(
  id: ThemeId,
  label: string,
  primary: string,
  page: string,
  container: string,
  nav: string,
  splashEnd: string,
): ThemeDefinition {
  return {
    id,
    label,
    dark: true,
    navBackground: nav,
    splashEnd,
    config: {
      algorithm: antdTheme.darkAlgorithm,
      token: {
        ...base,
        colorPrimary: primary,
        colorInfo: primary,
        colorBgLayout: page,
        colorBgContainer: container,
        colorBgElevated: container,
      },
      components: { Layout: { siderBg: nav, headerBg: container, bodyBg: page } },
    },
  };
}

export const THEMES: Record<ThemeId, ThemeDefinition> = {
  lightRed: light('lightRed', 'Light red', '#d4380d', '#3b0d04'),
  lightBlue: light('lightBlue', 'Light blue', '#1668dc', '#0b1a3a'),
  darkRed: dark('darkRed', 'Dark red', '#e8503a', '#141414', '#1f1f1f', '#181818', '#1c0805'),
  darkGray: dark('darkGray', 'Dark gray', '#7d8590', '#161718', '#222326', '#1b1c1e', '#0e0f10'),
  darkBlue: dark('darkBlue', 'Dark blue', '#3c89e8', '#0b1220', '#131c2e', '#0f1828', '#070c16'),
};

export function isThemeId(value: unknown): value is ThemeId {
  return typeof value === 'string' && (THEME_IDS as readonly string[]).includes(value);
}

/** darkBlue when the system prefers dark, else lightBlue (docs/product.md, Shell §4). */
export function defaultThemeId(prefersDark: boolean): ThemeId {
  return prefersDark ? 'darkBlue' : 'lightBlue';
}

/** The stored theme when it is valid, else the default. */
export function resolveThemeId(stored: string | null, prefersDark: boolean): ThemeId {
  return isThemeId(stored) ? stored : defaultThemeId(prefersDark);
}
