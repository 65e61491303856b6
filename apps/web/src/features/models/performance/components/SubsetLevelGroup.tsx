// One data level of a Subset Performance section (the performance page's and the comparison's):
// its title, the first `shown` subset cards in equal columns, and 'Show N more' / 'Show less'.
import type { DataLevel } from '@loupe/contracts';
import { Button, Col, Flex, Row, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { subsetGridSpans } from '../performanceRules';
import { performanceStrings as strings } from '../strings';

export interface SubsetLevelGroupProps<E extends { subset: { id: string } }> {
  level: DataLevel;
  entries: E[];
  /** Cards shown before 'Show N more'. */
  shown: number;
  renderCard: (entry: E) => ReactNode;
}

export function SubsetLevelGroup<E extends { subset: { id: string } }>({
  level,
  entries,
  shown: first,
  renderCard,
}: SubsetLevelGroupProps<E>) {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? entries : entries.slice(0, first);
  const more = entries.length - first;
  // Equal columns across the whole width: as many as there are cards, up to 4 a row.
  const spans = subsetGridSpans(shown.length);
  return (
    <Flex vertical gap={8} role="group" aria-label={strings.levels[level]}>
      <Typography.Text strong>{strings.levels[level]}</Typography.Text>
      <Row gutter={[12, 12]}>
        {shown.map((entry) => (
          <Col key={entry.subset.id} {...spans}>
            {renderCard(entry)}
          </Col>
        ))}
      </Row>
      {more > 0 && (
        <div>
          <Button type="link" size="small" onClick={() => setExpanded((value) => !value)}>
            {expanded ? strings.showLess : strings.showMore(more)}
          </Button>
        </div>
      )}
    </Flex>
  );
}
