// One grid card: preview, the toggled metadata values and, when colouring, a colour bar and
// border; in a comparison of two models, both models' predictions (shapes, and a line of tags).
// Click selects (Shift extends), double-click, Enter or the open button opens the item.
import { CheckCircleFilled, ExpandOutlined } from '@ant-design/icons';
import type { ExploreItem, MetadataFieldInfo } from '@loupe/contracts';
import { Button, Skeleton, Tooltip, Typography, theme } from 'antd';
import { memo, useState } from 'react';
import { exploreStrings as strings } from '../strings';
import type { AttributionDisplay } from '../../../components/AttributionOverlay';
import { ComparedPredictionTags } from '../../../components/ComparedPredictions';
import { comparedSides, type ComparedModels } from '../../../lib/comparedModels';
import { CardPreview } from '../../../components/CardPreview';
import { formatValue, itemValue } from './itemValues';

export const CARD_META_LINE = 20;
export const CARD_PADDING = 6;

export interface ItemCardProps {
  position: number;
  item: ExploreItem | undefined;
  width: number;
  previewHeight: number;
  fields: MetadataFieldInfo[];
  selected: boolean;
  color: string | null;
  classColors: Record<string, string>;
  classes: string[];
  /** Semantic segmentation: label-map pixel value → class name. */
  labelMap?: Record<string, string>;
  attribution?: AttributionDisplay | null;
  /** The comparison of two models the explorer is in. */
  compared?: ComparedModels | null;
  /** Keep a line for the two models' label and score tags (the grid counts it in the height). */
  comparedTags?: boolean;
  onSelect(position: number, shift: boolean): void;
  onOpen(position: number, item: ExploreItem): void;
}

export const ItemCard = memo(function ItemCard({
  position,
  item,
  width,
  previewHeight,
  fields,
  selected,
  color,
  classColors,
  classes,
  labelMap,
  attribution = null,
  compared = null,
  comparedTags = false,
  onSelect,
  onOpen,
}: ItemCardProps) {
  const { token } = theme.useToken();
  const [active, setActive] = useState(false);
  const border = selected ? token.colorPrimary : (color ?? token.colorBorderSecondary);

  return (
    <div
      role="gridcell"
      tabIndex={0}
      aria-selected={selected}
      aria-label={item?.id ?? `Item ${position + 1}`}
      data-testid="item-card"
      data-item-id={item?.id}
      data-color={color ?? undefined}
      onClick={(event) => onSelect(position, event.shiftKey)}
      onDoubleClick={() => item && onOpen(position, item)}
      onKeyDown={(event) => {
        if (event.target !== event.currentTarget) return;
        if (event.key === 'Enter' && item) {
          event.preventDefault();
          onOpen(position, item);
        } else if (event.key === ' ') {
          event.preventDefault();
          onSelect(position, event.shiftKey);
        }
      }}
      onMouseEnter={() => setActive(true)}
      onMouseLeave={() => setActive(false)}
      onFocus={() => setActive(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setActive(false);
      }}
      style={{
        position: 'relative',
        width,
        height: '100%',
        boxSizing: 'border-box',
        padding: CARD_PADDING,
        borderRadius: token.borderRadiusLG,
        border: `${selected || color ? 2 : 1}px solid ${border}`,
        background: selected ? token.colorPrimaryBg : token.colorBgContainer,
        cursor: 'pointer',
        outlineOffset: 2,
        userSelect: 'none',
        overflow: 'hidden',
      }}
    >
      {color && (
        <div
          aria-hidden
          style={{ position: 'absolute', left: 0, right: 0, top: 0, height: 4, background: color }}
        />
      )}
      <div style={{ height: previewHeight, borderRadius: token.borderRadius, overflow: 'hidden' }}>
        {item ? (
          <CardPreview
            item={item}
            size={width}
            classColors={classColors}
            classes={classes}
            labelMap={labelMap}
            attribution={attribution}
            compared={compared}
          />
        ) : (
          <Skeleton.Node active style={{ width: '100%', height: previewHeight }} />
        )}
      </div>
      {item && (
        <div style={{ marginTop: 4 }}>
          {compared && comparedTags && (
            <div style={{ height: CARD_META_LINE, minWidth: 0, overflow: 'hidden' }}>
              <ComparedPredictionTags sides={comparedSides(item, compared)} compact />
            </div>
          )}
          {fields.map((field) => {
            const value = itemValue(item, field.id);
            if (value === undefined) return null;
            return (
              <div
                key={field.id}
                style={{ height: CARD_META_LINE, display: 'flex', gap: 4, minWidth: 0 }}
                data-testid={`card-value-${field.id}`}
              >
                <Typography.Text
                  type="secondary"
                  style={{ fontSize: token.fontSizeSM, flexShrink: 0 }}
                >
                  {field.label}:
                </Typography.Text>
                <Typography.Text ellipsis style={{ fontSize: token.fontSizeSM }}>
                  {formatValue(value, field.type)}
                </Typography.Text>
              </div>
            );
          })}
        </div>
      )}
      {selected && (
        <CheckCircleFilled
          aria-hidden
          style={{
            position: 'absolute',
            top: CARD_PADDING + 6,
            left: CARD_PADDING + 6,
            color: token.colorPrimary,
            fontSize: 18,
            background: token.colorBgContainer,
            borderRadius: '50%',
          }}
        />
      )}
      {item && active && (
        <Tooltip title={strings.open}>
          <Button
            size="small"
            icon={<ExpandOutlined />}
            aria-label={strings.open}
            onClick={(event) => {
              event.stopPropagation();
              onOpen(position, item);
            }}
            style={{ position: 'absolute', top: CARD_PADDING + 4, right: CARD_PADDING + 4 }}
          />
        </Tooltip>
      )}
    </div>
  );
});
