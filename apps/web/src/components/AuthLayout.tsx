// The frame of the signed-out pages: an optional splash beside a centred panel.
import { Flex, theme } from 'antd';
import type { ReactNode } from 'react';
import { BrandMark } from './BrandMark';

export function AuthLayout({ aside, children }: { aside?: ReactNode; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex style={{ minHeight: '100vh', background: token.colorBgLayout }}>
      {aside && (
        <div style={{ flex: '1 1 50%', minWidth: 0 }} className="loupe-auth-aside">
          {aside}
        </div>
      )}
      <Flex
        vertical
        align="center"
        justify="center"
        gap={24}
        style={{ flex: '1 1 50%', padding: 32, minWidth: 0 }}
      >
        {!aside && <BrandMark />}
        {children}
      </Flex>
    </Flex>
  );
}
