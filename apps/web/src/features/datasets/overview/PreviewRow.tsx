// The overview's preview row: up to 3 sample previews, then a tile of the classes (when there
// are any) and a tile of the ground-truth objects count (when there are any).
import { AimOutlined, TagsOutlined } from '@ant-design/icons';
import type { Dataset } from '@loupe/contracts';
import { Flex, Tag, Typography, theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { PreviewImage } from '../PreviewImage';
import { datasetStrings as strings } from '../strings';

const TILE_HEIGHT = 148;
const MAX_CLASS_CHIPS = 10;

function Tile({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      gap={8}
      data-testid="preview-tile"
      style={{
        flex: 1,
        minWidth: 0,
        height: TILE_HEIGHT,
        padding: 12,
        borderRadius: token.borderRadius,
        background: token.colorFillQuaternary,
        border: `1px solid ${token.colorBorderSecondary}`,
        overflow: 'hidden',
      }}
    >
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
        {icon} {title}
      </Typography.Text>
      {children}
    </Flex>
  );
}

export function PreviewRow({ dataset }: { dataset: Dataset }) {
  const { token } = theme.useToken();
  const previews = dataset.preview_urls.slice(0, 3);
  const imageStyle: CSSProperties = { flex: 1, minWidth: 0, height: TILE_HEIGHT };
  const classes = dataset.class_names.slice(0, MAX_CLASS_CHIPS);
  const moreClasses = dataset.classes_count - classes.length;
  if (previews.length === 0 && dataset.classes_count === 0 && dataset.objects_count === 0) {
    return null;
  }
  return (
    <Flex gap={12} data-testid="preview-row">
      {previews.map((url) => (
        <PreviewImage
          key={url}
          src={url}
          style={{ ...imageStyle, borderRadius: token.borderRadius }}
        />
      ))}
      {dataset.classes_count > 0 && (
        <Tile title={strings.classesTile} icon={<TagsOutlined />}>
          <Flex gap={4} wrap style={{ overflow: 'hidden' }}>
            {classes.map((name) => (
              <Tag key={name} style={{ marginInlineEnd: 0 }}>
                {name}
              </Tag>
            ))}
            {moreClasses > 0 && (
              <Tag bordered={false} style={{ marginInlineEnd: 0 }}>
                {strings.moreClasses(moreClasses)}
              </Tag>
            )}
          </Flex>
        </Tile>
      )}
      {dataset.objects_count > 0 && (
        <Tile title={strings.objectsTile} icon={<AimOutlined />}>
          <Typography.Text style={{ fontSize: 32, fontWeight: 600, lineHeight: 1.2 }}>
            {dataset.objects_count.toLocaleString()}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {strings.samples(dataset.samples_count ?? 0)}
          </Typography.Text>
        </Tile>
      )}
    </Flex>
  );
}
