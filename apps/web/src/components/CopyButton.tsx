// A copy button whose tooltip says 'Copied!' for 2000 ms after a click.
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useCopyToClipboard } from '../lib/useCopyToClipboard';
import { commonStrings } from './strings';

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <Tooltip title={copied ? commonStrings.copied : commonStrings.copy} open={copied || undefined}>
      <Button
        icon={copied ? <CheckOutlined /> : <CopyOutlined />}
        aria-label={label ?? commonStrings.copy}
        onClick={() => void copy(text)}
      >
        {label}
      </Button>
    </Tooltip>
  );
}
