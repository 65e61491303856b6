// Thumbnails of the loaded neighbours (80×56, a 4 px border marking the open item); a click
// opens that item.
import type { ExploreItem } from '@loupe/contracts';
import { Flex, Skeleton, theme } from 'antd';
import { useEffect, useRef } from 'react';
import { viewerStrings as strings } from '../strings';

export const THUMB_WIDTH = 80;
export const THUMB_HEIGHT = 56;
export const THUMB_BORDER = 4;

export function Filmstrip({
  window: [start, end],
  index,
  itemAt,
  onPick,
}: {
  window: [number, number];
  index: number;
  itemAt: (position: number) => ExploreItem | undefined;
  onPick: (position: number) => void;
}) {
  const { token } = theme.useToken();
  const currentRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    currentRef.current?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
  }, [index]);
  const positions = Array.from({ length: end - start }, (_, i) => start + i);
  return (
    <nav aria-label={strings.filmstrip}>
      <Flex
        gap={6}
        style={{ overflowX: 'auto', padding: '8px 0 2px', justifyContent: 'safe center' }}
      >
        {positions.map((position) => {
          const item = itemAt(position);
          const current = position === index;
          const src = item?.thumbnail_src ?? item?.spectrogram_src ?? item?.src ?? null;
          return (
            <button
              key={position}
              ref={current ? currentRef : undefined}
              type="button"
              aria-label={strings.itemAt(position)}
              aria-current={current || undefined}
              data-testid="filmstrip-thumb"
              data-position={position}
              onClick={() => onPick(position)}
              style={{
                flexShrink: 0,
                width: THUMB_WIDTH + 2 * THUMB_BORDER,
                height: THUMB_HEIGHT + 2 * THUMB_BORDER,
                padding: 0,
                border: `${THUMB_BORDER}px solid ${current ? token.colorPrimary : 'transparent'}`,
                borderRadius: token.borderRadiusSM,
                background: token.colorFillTertiary,
                cursor: 'pointer',
                overflow: 'hidden',
              }}
            >
              {src ? (
                <img
                  src={src}
                  alt=""
                  draggable={false}
                  style={{
                    width: THUMB_WIDTH,
                    height: THUMB_HEIGHT,
                    objectFit: 'cover',
                    display: 'block',
                  }}
                />
              ) : item ? null : (
                <Skeleton.Node active style={{ width: THUMB_WIDTH, height: THUMB_HEIGHT }} />
              )}
            </button>
          );
        })}
      </Flex>
    </nav>
  );
}
