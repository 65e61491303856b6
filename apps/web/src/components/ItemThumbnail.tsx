// A small square picture of an explorer item: its thumbnail (a spectrogram for audio), cropped to
// the object for object items, or 'Unable to load image' when it fails.
import type { ExploreItem } from '@loupe/contracts';
import { Skeleton, Typography, theme } from 'antd';
import { useState } from 'react';

export const UNABLE_TO_LOAD_IMAGE = 'Unable to load image';

function pictureOf(item: ExploreItem): string | null {
  if (item.media_type === 'audio') return item.spectrogram_src ?? item.thumbnail_src;
  return item.thumbnail_src ?? item.src;
}

export function ItemThumbnail({ item, size }: { item: ExploreItem | undefined; size: number }) {
  const { token } = theme.useToken();
  const [failed, setFailed] = useState(false);
  const box: React.CSSProperties = {
    width: size,
    height: size,
    position: 'relative',
    overflow: 'hidden',
    borderRadius: token.borderRadiusSM,
    background: token.colorFillQuaternary,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flex: 'none',
  };
  if (!item) return <Skeleton.Node active style={{ width: size, height: size }} />;
  const src = pictureOf(item);
  if (!src || failed)
    return (
      <div style={box}>
        <Typography.Text type="secondary" style={{ fontSize: 11, textAlign: 'center', padding: 4 }}>
          {UNABLE_TO_LOAD_IMAGE}
        </Typography.Text>
      </div>
    );
  // An object item shows its box: scale the picture so the box fills the square.
  const [y1, x1, y2, x2] = item.crop ?? [0, 0, 1, 1];
  const w = Math.max(1e-3, x2 - x1);
  const h = Math.max(1e-3, y2 - y1);
  const style: React.CSSProperties = item.crop
    ? {
        position: 'absolute',
        left: `${(-x1 / w) * 100}%`,
        top: `${(-y1 / h) * 100}%`,
        width: `${100 / w}%`,
        height: `${100 / h}%`,
      }
    : { width: '100%', height: '100%', objectFit: 'cover' };
  return (
    <div style={box}>
      <img
        src={src}
        alt={item.id}
        draggable={false}
        loading="lazy"
        onError={() => setFailed(true)}
        style={style}
      />
    </div>
  );
}
