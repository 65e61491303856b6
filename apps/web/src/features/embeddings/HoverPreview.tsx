// The 140 px preview of the point under the pointer (docs/product.md, Datasets §9), shown beside it;
// in a comparison of two models, with model A's and model B's predictions as the cards' tags.
import type { DataLevel } from '@loupe/contracts';
import { Typography, theme } from 'antd';
import { ComparedPredictionTags } from '../../components/ComparedPredictions';
import { ItemThumbnail } from '../../components/ItemThumbnail';
import { useItemPreviewsByRows } from '../../api/hooks/useItemPreviews';
import { comparedSides, type ComparedModels } from '../../lib/comparedModels';

export const HOVER_PREVIEW_PX = 140;
export const HOVER_DEBOUNCE_MS = 200;

export interface HoverPreviewProps {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  /** The comparison of two models the explorer is in: both models' predictions are shown. */
  compared?: ComparedModels | null;
  /** The hovered point's item-table row, in the table of `version`. */
  row: number;
  version: number;
  /** Pointer position inside the map. */
  x: number;
  y: number;
  /** The map's size, to keep the card inside it. */
  width: number;
  height: number;
}

export function HoverPreview(props: HoverPreviewProps) {
  const { token } = theme.useToken();
  const items = useItemPreviewsByRows(
    props.datasetId,
    props.dataLevel,
    [props.row],
    props.version,
    props.predictionsId,
    props.compared?.request,
  );
  const item = items.data?.get(props.row);
  const card = HOVER_PREVIEW_PX + 16;
  const gap = 16;
  const left = props.x + gap + card > props.width ? props.x - gap - card : props.x + gap;
  const top = Math.min(Math.max(0, props.y - card / 2), Math.max(0, props.height - card - 24));
  return (
    <div
      data-testid="embeddings-hover-preview"
      style={{
        position: 'absolute',
        left: Math.max(0, left),
        top,
        padding: 8,
        pointerEvents: 'none',
        background: token.colorBgElevated,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        boxShadow: token.boxShadowSecondary,
        zIndex: 2,
      }}
    >
      <ItemThumbnail item={item} size={HOVER_PREVIEW_PX} />
      <Typography.Text
        ellipsis
        style={{
          display: 'block',
          width: HOVER_PREVIEW_PX,
          fontSize: token.fontSizeSM,
          marginTop: 4,
        }}
      >
        {item?.label ?? item?.id}
      </Typography.Text>
      {item && props.compared && (
        <div style={{ width: HOVER_PREVIEW_PX, marginTop: 4 }}>
          <ComparedPredictionTags sides={comparedSides(item, props.compared)} />
        </div>
      )}
    </div>
  );
}
