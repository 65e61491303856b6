// The rows of a virtualized card grid: each visible row placed at its offset in a box as tall as
// all the rows, with up to `columns` cells side by side. What a cell shows is the caller's.
import type { VirtualItem } from '@tanstack/react-virtual';
import type { ReactNode } from 'react';

export interface VirtualGridRowsProps {
  /** The virtualizer's visible rows. */
  rows: VirtualItem[];
  /** The height of all the rows together. */
  totalHeight: number;
  rowHeight: number;
  columns: number;
  gap: number;
  /** The card at a position (row × columns + column), or null where there is none. */
  cell(position: number): ReactNode;
}

export function VirtualGridRows({
  rows,
  totalHeight,
  rowHeight,
  columns,
  gap,
  cell,
}: VirtualGridRowsProps) {
  return (
    <div style={{ height: totalHeight, position: 'relative', width: '100%' }}>
      {rows.map((virtualRow) => (
        <div
          key={virtualRow.key}
          role="row"
          style={{
            position: 'absolute',
            top: 0,
            left: 0,
            width: '100%',
            height: rowHeight,
            transform: `translateY(${virtualRow.start}px)`,
            display: 'flex',
            gap,
          }}
        >
          {Array.from({ length: columns }, (_, col) => cell(virtualRow.index * columns + col))}
        </div>
      ))}
    </div>
  );
}
