// The login page's splash: headline, what the product is for, who uses it, and the subtitle.
import { Flex, Tag, Typography, theme } from 'antd';
import { useTheme } from '../../app/theme/useTheme';
import { BrandMark } from '../../components/BrandMark';
import { authStrings } from './strings';

export function LoginSplash() {
  const { token } = theme.useToken();
  const { theme: current } = useTheme();
  return (
    <Flex
      vertical
      justify="space-between"
      gap={32}
      style={{
        padding: 48,
        color: '#fff',
        background: `linear-gradient(145deg, ${token.colorPrimary} 0%, ${current.splashEnd} 100%)`,
        height: '100%',
      }}
    >
      <BrandMark inverted />
      <Flex vertical gap={16} style={{ maxWidth: 520 }}>
        <Typography.Title level={1} style={{ color: '#fff', margin: 0, fontSize: 44 }}>
          {authStrings.splashHeadline}
        </Typography.Title>
        <Typography.Paragraph style={{ color: 'rgba(255,255,255,0.85)', fontSize: 18, margin: 0 }}>
          {authStrings.splashLine}
        </Typography.Paragraph>
        <Flex vertical gap={12} style={{ marginTop: 16 }}>
          {authStrings.roles.map(({ role, quote }) => (
            <Flex
              key={role}
              gap={12}
              align="center"
              style={{
                background: 'rgba(255,255,255,0.08)',
                border: '1px solid rgba(255,255,255,0.16)',
                borderRadius: token.borderRadiusLG,
                padding: '10px 14px',
              }}
            >
              <Tag bordered={false} style={{ margin: 0, minWidth: 64, textAlign: 'center' }}>
                {role}
              </Tag>
              <Typography.Text style={{ color: 'rgba(255,255,255,0.9)' }}>
                “{quote}”
              </Typography.Text>
            </Flex>
          ))}
        </Flex>
      </Flex>
      <Typography.Title level={3} style={{ color: '#fff', margin: 0 }}>
        {authStrings.splashSubtitle}
      </Typography.Title>
    </Flex>
  );
}
