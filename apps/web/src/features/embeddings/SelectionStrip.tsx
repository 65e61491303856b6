// The selection preview beside the map: the owner's actions on the selection, then up to 16
// thumbnails of 64 px in rows of 4, the last slot a '+N' when more are selected
// (docs/product.md, Datasets §9).
import { CloseOutlined } from '@ant-design/icons';
import type { DataLevel } from '@loupe/contracts';
import { Button, Flex, Tooltip, Typography, theme } from 'antd';
import { ItemThumbnail } from '../../components/ItemThumbnail';
import { useItemPreviewsByRows } from '../../api/hooks/useItemPreviews';
import { PREVIEW_ROW, selectionPreview } from './selectionPreview';
import { embeddingsStrings as strings } from './strings';

export const SIDEBAR_THUMB_PX = 64;
const GAP = 6;

export interface SelectionStripProps {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  /** Item-table rows of the selected points, in the table of `version`. */
  selectedRows: number[];
  version: number;
  onOpenItem(row: number): void;
  onClear(): void;
  /** The owner's actions on the selection, under the title. */
  actions?: React.ReactNode;
}

export function SelectionStrip(props: SelectionStripProps) {
  const { token } = theme.useToken();
  const { shown, more } = selectionPreview(props.selectedRows.length);
  const rows = props.selectedRows.slice(0, shown);
  const items = useItemPreviewsByRows(
    props.datasetId,
    props.dataLevel,
    rows,
    props.version,
    props.predictionsId,
  );
  const width = PREVIEW_ROW * SIDEBAR_THUMB_PX + (PREVIEW_ROW - 1) * GAP;
  return (
    <div
      data-testid="embeddings-selection"
      style={{
        position: 'absolute',
        right: 12,
        top: 12,
        padding: 10,
        background: token.colorBgElevated,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        boxShadow: token.boxShadowTertiary,
        zIndex: 1,
      }}
    >
      <Flex align="center" justify="space-between" style={{ width, marginBottom: 8 }}>
        <Typography.Text strong>
          {strings.selectionTitle(props.selectedRows.length)}
        </Typography.Text>
        <Tooltip title={strings.clearSelection}>
          <Button
            size="small"
            type="text"
            aria-label={strings.clearSelection}
            icon={<CloseOutlined />}
            onClick={props.onClear}
          />
        </Tooltip>
      </Flex>
      {props.actions && (
        <Flex
          gap={4}
          wrap
          style={{ width, marginBottom: 8 }}
          data-testid="embeddings-selection-actions"
        >
          {props.actions}
        </Flex>
      )}
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: `repeat(${PREVIEW_ROW}, ${SIDEBAR_THUMB_PX}px)`,
          gap: GAP,
        }}
      >
        {rows.map((row) => (
          <button
            key={row}
            type="button"
            title={items.data?.get(row)?.id}
            data-testid="embeddings-selection-item"
            onClick={() => props.onOpenItem(row)}
            style={{ padding: 0, border: 0, background: 'none', cursor: 'pointer' }}
          >
            <ItemThumbnail item={items.data?.get(row)} size={SIDEBAR_THUMB_PX} />
          </button>
        ))}
        {more > 0 && (
          <div
            data-testid="embeddings-selection-more"
            style={{
              width: SIDEBAR_THUMB_PX,
              height: SIDEBAR_THUMB_PX,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              borderRadius: token.borderRadiusSM,
              background: token.colorFillSecondary,
              fontWeight: 600,
            }}
          >
            {strings.more(more)}
          </div>
        )}
      </div>
    </div>
  );
}
