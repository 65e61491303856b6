// A sample thumbnail that fills its tile, or 'Unable to load image' when it cannot load.
import { FileImageOutlined } from '@ant-design/icons';
import { Flex, Typography, theme } from 'antd';
import { useState, type CSSProperties } from 'react';
import { datasetStrings as strings } from './strings';

export function PreviewImage({ src, style }: { src: string; style?: CSSProperties }) {
  const { token } = theme.useToken();
  const [failed, setFailed] = useState(false);
  const frame: CSSProperties = {
    background: token.colorFillTertiary,
    borderRadius: token.borderRadiusSM,
    overflow: 'hidden',
    ...style,
  };
  if (failed) {
    return (
      <Flex vertical align="center" justify="center" gap={4} style={frame}>
        <FileImageOutlined style={{ color: token.colorTextQuaternary, fontSize: 18 }} />
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {strings.unableToLoadImage}
        </Typography.Text>
      </Flex>
    );
  }
  return (
    <div style={frame}>
      <img
        src={src}
        alt=""
        loading="lazy"
        data-testid="dataset-preview"
        onError={() => setFailed(true)}
        style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
      />
    </div>
  );
}
