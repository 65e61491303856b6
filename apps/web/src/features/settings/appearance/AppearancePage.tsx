// Settings → Appearance: the theme picker (development environment only).
import { CheckCircleFilled } from '@ant-design/icons';
import { Card, Col, Flex, Row, Typography } from 'antd';
import { useTheme } from '../../../app/theme/useTheme';
import { THEME_IDS, THEMES, type ThemeDefinition } from '../../../app/theme/themes';
import { settingsStrings } from '../strings';

const strings = settingsStrings.appearance;

function Swatch({ theme }: { theme: ThemeDefinition }) {
  const token = theme.config.token ?? {};
  const page = (token.colorBgLayout as string | undefined) ?? (theme.dark ? '#141414' : '#f5f6f8');
  const panel =
    (token.colorBgContainer as string | undefined) ?? (theme.dark ? '#1f1f1f' : '#ffffff');
  return (
    <div
      aria-hidden
      style={{
        display: 'flex',
        height: 72,
        borderRadius: 6,
        overflow: 'hidden',
        border: '1px solid rgba(128,128,128,0.3)',
      }}
    >
      <div style={{ width: 28, background: theme.navBackground }} />
      <div style={{ flex: 1, background: page, padding: 8 }}>
        <div style={{ height: '100%', background: panel, borderRadius: 4, padding: 8 }}>
          <div style={{ width: 40, height: 10, borderRadius: 3, background: token.colorPrimary }} />
        </div>
      </div>
    </div>
  );
}

export function AppearancePage() {
  const { theme, setThemeId } = useTheme();
  return (
    <Flex vertical gap={16} style={{ maxWidth: 900 }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {strings.intro}
      </Typography.Paragraph>
      <Row gutter={[16, 16]} role="radiogroup" aria-label={strings.title}>
        {THEME_IDS.map((id) => {
          const option = THEMES[id];
          const selected = id === theme.id;
          return (
            <Col key={id} xs={24} sm={12} md={8}>
              <Card
                hoverable
                role="radio"
                aria-checked={selected}
                aria-label={option.label}
                data-theme-id={id}
                tabIndex={0}
                onClick={() => setThemeId(id)}
                onKeyDown={(event) =>
                  (event.key === 'Enter' || event.key === ' ') && setThemeId(id)
                }
                style={{
                  borderColor: selected ? theme.config.token?.colorPrimary : undefined,
                  borderWidth: selected ? 2 : 1,
                }}
              >
                <Swatch theme={option} />
                <Flex justify="space-between" align="center" style={{ marginTop: 12 }}>
                  <Typography.Text strong>{option.label}</Typography.Text>
                  {selected && (
                    <CheckCircleFilled style={{ color: theme.config.token?.colorPrimary }} />
                  )}
                </Flex>
              </Card>
            </Col>
          );
        })}
      </Row>
    </Flex>
  );
}
