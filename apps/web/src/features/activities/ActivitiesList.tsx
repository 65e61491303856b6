// The virtualized list of activities, 386 × 428 px, rows 82 px (104 for embeddings jobs).
import type { Activity } from '@loupe/contracts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Empty, Flex } from 'antd';
import { useRef } from 'react';
import { ActivityRow } from './ActivityRow';
import { LIST_HEIGHT, LIST_WIDTH, rowHeight } from './activityRules';
import { activityStrings as strings } from './strings';

export interface ActivitiesListProps {
  activities: Activity[];
  now: number;
  onOpen: (path: string) => void;
}

export function ActivitiesList({ activities, now, onOpen }: ActivitiesListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: activities.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => rowHeight(activities[index]!),
    getItemKey: (index) => activities[index]!.id,
    overscan: 4,
    // The list has a fixed size, so it never needs measuring (nor does it under test, without layout).
    initialRect: { width: LIST_WIDTH, height: LIST_HEIGHT },
    observeElementRect: (_instance, onChange) => {
      onChange({ width: LIST_WIDTH, height: LIST_HEIGHT });
      return () => undefined;
    },
  });
  if (activities.length === 0) {
    return (
      <Flex align="center" justify="center" style={{ width: LIST_WIDTH, height: LIST_HEIGHT }}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.empty} />
      </Flex>
    );
  }
  return (
    <div
      ref={scroller}
      data-testid="activities-list"
      style={{ width: LIST_WIDTH, height: LIST_HEIGHT, overflowY: 'auto' }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              transform: `translateY(${row.start}px)`,
            }}
          >
            <ActivityRow activity={activities[row.index]!} now={now} onOpen={onOpen} />
          </div>
        ))}
      </div>
    </div>
  );
}
