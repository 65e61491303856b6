// The 140 px preview of the point under the pointer (docs/product.md, Datasets §9), shown beside it:
// the grid card's picture (boxes, masks, label maps); in a comparison of two models, model A's and
// model B's predicted shapes in the models' colours and their predictions as the cards' tags.
import type { DataLevel, Dataset } from '@loupe/contracts';
import { Skeleton, Typography, theme } from 'antd';
import { useColorMap } from '../../api/hooks/useColorMap';
import { CardPreview } from '../../components/CardPreview';
import { ComparedPredictionTags } from '../../components/ComparedPredictions';
import { useItemPreviewsByRows } from '../../api/hooks/useItemPreviews';
import { comparedSides, type ComparedModels } from '../../lib/comparedModels';

export const HOVER_PREVIEW_PX = 140;
export const HOVER_DEBOUNCE_MS = 200;

export interface HoverPreviewProps {
  dataset: Dataset;
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
  const { dataset } = props;
  const classColors = useColorMap(dataset.id, dataset.task_type).data ?? {};
  const items = useItemPreviewsByRows(
    dataset.id,
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
      {item ? (
        <div
          data-testid="hover-preview-picture"
          style={{
            width: HOVER_PREVIEW_PX,
            height: HOVER_PREVIEW_PX,
            position: 'relative',
            overflow: 'hidden',
            borderRadius: token.borderRadiusSM,
          }}
        >
          <CardPreview
            item={item}
            size={HOVER_PREVIEW_PX}
            classColors={classColors}
            classes={dataset.class_names}
            {...(dataset.label_map ? { labelMap: dataset.label_map } : {})}
            compared={props.compared ?? null}
          />
        </div>
      ) : (
        <Skeleton.Node active style={{ width: HOVER_PREVIEW_PX, height: HOVER_PREVIEW_PX }} />
      )}
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
