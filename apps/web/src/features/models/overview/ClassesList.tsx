// The dataset's classes (or, for regression, its value names) on the model overview: the first
// INITIAL_CLASSES as tags, the rest behind 'Show all'.
import { Button, Card, Flex, Tag } from 'antd';
import { useState } from 'react';
import { overviewStrings as strings } from './strings';

export const INITIAL_CLASSES = 30;

export function ClassesList({ title, names }: { title: string; names: readonly string[] }) {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? names : names.slice(0, INITIAL_CLASSES);
  return (
    <Card size="small" title={`${title} (${names.length.toLocaleString()})`}>
      <Flex wrap="wrap" gap={6} data-testid="model-classes">
        {shown.map((name) => (
          <Tag key={name} style={{ marginInlineEnd: 0 }}>
            {name}
          </Tag>
        ))}
      </Flex>
      {names.length > INITIAL_CLASSES && (
        <Button
          type="link"
          size="small"
          style={{ paddingInline: 0, marginTop: 8 }}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? strings.showFewer : strings.showAll(names.length)}
        </Button>
      )}
    </Card>
  );
}
