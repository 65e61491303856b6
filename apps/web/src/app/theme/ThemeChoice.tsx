// A compact choice of the five themes (one swatch each), for the profile menu; it stores the
// choice the way Settings → Appearance does, through the theme provider.
import { CheckOutlined } from '@ant-design/icons';
import { Flex, Tooltip, theme as antdTheme } from 'antd';
import { THEME_IDS, THEMES } from './themes';
import { useTheme } from './useTheme';

export function ThemeChoice({ label }: { label: string }) {
  const { theme: current, setThemeId } = useTheme();
  const { token } = antdTheme.useToken();
  return (
    <Flex gap={8} role="radiogroup" aria-label={label}>
      {THEME_IDS.map((id) => {
        const option = THEMES[id];
        const chosen = id === current.id;
        const primary = option.config.token?.colorPrimary as string;
        return (
          <Tooltip key={id} title={option.label}>
            <button
              type="button"
              role="radio"
              aria-checked={chosen}
              aria-label={option.label}
              onClick={() => setThemeId(id)}
              style={{
                width: 28,
                height: 28,
                padding: 0,
                borderRadius: '50%',
                cursor: 'pointer',
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                // Half the theme's navigation shade, half its primary colour.
                background: `linear-gradient(135deg, ${option.navBackground} 50%, ${primary} 50%)`,
                border: `2px solid ${chosen ? token.colorPrimary : token.colorBorder}`,
                outlineOffset: 2,
              }}
            >
              {chosen && (
                <CheckOutlined
                  style={{
                    fontSize: 12,
                    color: '#ffffff',
                    filter: 'drop-shadow(0 0 1px rgba(0,0,0,0.8))',
                  }}
                />
              )}
            </button>
          </Tooltip>
        );
      })}
    </Flex>
  );
}
