// A command or snippet in a monospace block with a copy button ('Copied!' for 2000 ms).
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button, Flex, Tooltip, theme } from 'antd';
import { commonStrings } from '../../components/strings';
import { useCopyToClipboard } from '../../lib/useCopyToClipboard';

export interface CodeBlockProps {
  code: string;
  /** Names the copy button for assistive technology and tests. */
  copyLabel: string;
  testId?: string;
}

export function CodeBlock({ code, copyLabel, testId }: CodeBlockProps) {
  const { token } = theme.useToken();
  const { copied, copy } = useCopyToClipboard();
  return (
    <Flex
      align="flex-start"
      gap={8}
      style={{
        background: token.colorFillQuaternary,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        padding: '8px 8px 8px 12px',
      }}
    >
      <pre
        data-testid={testId}
        style={{
          flex: 1,
          margin: 0,
          minWidth: 0,
          overflowX: 'auto',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontFamily: token.fontFamilyCode,
          fontSize: token.fontSizeSM,
          lineHeight: 1.7,
          color: token.colorText,
          alignSelf: 'center',
        }}
      >
        {code}
      </pre>
      <Tooltip title={copied ? commonStrings.copied : copyLabel} open={copied || undefined}>
        <Button
          type="text"
          size="small"
          icon={copied ? <CheckOutlined style={{ color: token.colorSuccess }} /> : <CopyOutlined />}
          aria-label={copyLabel}
          onClick={() => void copy(code)}
        />
      </Tooltip>
    </Flex>
  );
}
