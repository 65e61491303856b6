// One line of the overview's Settings section: title and help on the left, the control right.
import { Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';

export interface SettingRowProps {
  title: string;
  description: ReactNode;
  children: ReactNode;
}

export function SettingRow({ title, description, children }: SettingRowProps) {
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      justify="space-between"
      gap={24}
      style={{ padding: '16px 0', borderBottom: `1px solid ${token.colorBorderSecondary}` }}
    >
      <Flex vertical gap={2} style={{ minWidth: 0 }}>
        <Typography.Text strong>{title}</Typography.Text>
        <Typography.Text type="secondary">{description}</Typography.Text>
      </Flex>
      <div style={{ flexShrink: 0 }}>{children}</div>
    </Flex>
  );
}
