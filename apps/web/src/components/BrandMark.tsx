// The product's mark and name.
import { Flex, Typography, theme } from 'antd';

export function BrandMark({
  inverted = false,
  compact = false,
}: {
  inverted?: boolean;
  compact?: boolean;
}) {
  const { token } = theme.useToken();
  const color = inverted ? '#fff' : token.colorPrimary;
  return (
    <Flex align="center" gap={10}>
      <svg width={28} height={28} viewBox="0 0 32 32" aria-hidden>
        <circle cx="14" cy="14" r="9" fill="none" stroke={color} strokeWidth="4" />
        <path d="M21 21l7 7" stroke={color} strokeWidth="4" strokeLinecap="round" />
      </svg>
      {!compact && (
        <Typography.Text
          strong
          style={{ fontSize: 20, letterSpacing: 0.3, color: inverted ? '#fff' : token.colorText }}
        >
          Loupe
        </Typography.Text>
      )}
    </Flex>
  );
}
