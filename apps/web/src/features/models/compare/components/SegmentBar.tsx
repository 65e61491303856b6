// The distribution tab bar of a breakdown: one segment per category (four, or three for
// regression and speech recognition), as wide as its share of the items (count / total × 100),
// labelled with its count and entity word, with a tooltip; a click selects the category's tab
// unless it has nothing.
import type { ComparisonCategory } from '@loupe/contracts';
import { Tooltip, theme } from 'antd';
import { segmentWidths } from '../comparisonRules';
import { useCategoryColors } from '../hooks/useCategoryColors';
import { compareStrings as strings } from '../strings';

export interface Segment {
  category: ComparisonCategory;
  /** The category's label ('Model A is better', 'Both are correct' …). */
  label: string;
  count: number;
  /** The count with its entity word ('3 classes'). */
  countText: string;
}

export interface SegmentBarProps {
  /** Names the tab list ('Per class breakdown'). */
  label: string;
  segments: Segment[];
  active: ComparisonCategory | null;
  onSelect(category: ComparisonCategory): void;
}

export function SegmentBar({ label, segments, active, onSelect }: SegmentBarProps) {
  const { token } = theme.useToken();
  const colors = useCategoryColors();
  const total = segments.reduce((sum, segment) => sum + segment.count, 0);
  const widths = segmentWidths(
    segments.map((segment) => segment.count),
    total,
  );
  return (
    <div
      role="tablist"
      aria-label={label}
      style={{
        display: 'flex',
        width: '100%',
        height: 32,
        borderRadius: token.borderRadius,
        overflow: 'hidden',
        background: token.colorFillTertiary,
      }}
    >
      {segments.map((segment, index) => {
        const width = widths[index]!;
        const selected = active === segment.category;
        const percent = `${width.toFixed(2)}%`;
        // Segments other than the selected one are faded towards the page, and their text is
        // the page's: white on a faded colour would be unreadable in a light theme.
        const faded = active !== null && !selected;
        const color = colors[segment.category];
        return (
          <Tooltip
            key={segment.category}
            title={strings.segmentTooltip(segment.label, segment.countText, percent)}
          >
            <button
              type="button"
              role="tab"
              aria-selected={selected}
              aria-label={`${segment.label}: ${segment.countText}`}
              disabled={segment.count === 0}
              data-testid={`segment-${segment.category}`}
              data-width={percent}
              onClick={() => onSelect(segment.category)}
              style={{
                width: `${width}%`,
                display: width > 0 ? 'block' : 'none',
                border: 'none',
                padding: '0 6px',
                margin: 0,
                cursor: 'pointer',
                background: faded
                  ? `color-mix(in srgb, ${color} 45%, ${token.colorBgContainer})`
                  : color,
                color: faded ? token.colorText : token.colorTextLightSolid,
                font: 'inherit',
                fontSize: token.fontSizeSM,
                fontWeight: selected ? 600 : 400,
                whiteSpace: 'nowrap',
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                boxShadow: selected ? `inset 0 -3px 0 ${token.colorText}` : undefined,
              }}
            >
              {segment.countText}
            </button>
          </Tooltip>
        );
      })}
    </div>
  );
}
