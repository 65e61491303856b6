// Applies the chosen theme to antd and the page background, and remembers the choice.
import { App as AntdApp, ConfigProvider, theme as antdTheme } from 'antd';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { emitTestEvent } from '../../lib/testEvents';
import { usePrefersReducedMotion, withMotionPreference } from './reducedMotion';
import { ThemeContext } from './ThemeContext';
import { loadThemeId, saveThemeId } from './themeStorage';
import { THEMES, type ThemeId } from './themes';

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [themeId, setThemeIdState] = useState<ThemeId>(loadThemeId);
  const theme = THEMES[themeId];
  const reducedMotion = usePrefersReducedMotion();
  const config = useMemo(
    () => withMotionPreference(theme.config, reducedMotion),
    [theme, reducedMotion],
  );

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme.id;
    root.style.colorScheme = theme.dark ? 'dark' : 'light';
    emitTestEvent({ type: 'theme:applied', themeId: theme.id });
  }, [theme]);

  const value = useMemo(
    () => ({
      theme,
      setThemeId: (id: ThemeId) => {
        saveThemeId(id);
        setThemeIdState(id);
      },
    }),
    [theme],
  );

  return (
    <ThemeContext.Provider value={value}>
      <ConfigProvider theme={config}>
        <BodyStyle />
        <AntdApp className="loupe-root">{children}</AntdApp>
      </ConfigProvider>
    </ThemeContext.Provider>
  );
}

/** Paints the page itself (outside antd's components) with the theme's layout colours. */
function BodyStyle() {
  const { token } = antdTheme.useToken();
  useEffect(() => {
    const body = document.body;
    body.style.margin = '0';
    body.style.background = token.colorBgLayout;
    body.style.color = token.colorText;
    body.style.fontFamily = token.fontFamily;
    body.style.fontSize = `${token.fontSize}px`;
  }, [token]);
  return null;
}
