// The overview's Suggestions sidebar (docs/product.md, Models §2): Improve Model and Improve
// Dataset. Suggestions come from health checks and workflows; until Loupe has them, each section
// says so plainly rather than look broken.
import { Card, Flex, Typography } from 'antd';
import { overviewStrings as strings } from './strings';

function SuggestionSection({ title, later }: { title: string; later: string }) {
  return (
    <section aria-label={title}>
      <Typography.Title level={5} style={{ marginTop: 0, marginBottom: 8 }}>
        {title}
      </Typography.Title>
      <Flex vertical gap={2}>
        <Typography.Text>{strings.noSuggestions}</Typography.Text>
        <Typography.Text type="secondary">{later}</Typography.Text>
      </Flex>
    </section>
  );
}

export function SuggestionsSidebar() {
  return (
    <Card size="small" title={strings.suggestions}>
      <Flex vertical gap={20}>
        <SuggestionSection title={strings.improveModel} later={strings.improveModelLater} />
        <SuggestionSection title={strings.improveDataset} later={strings.improveDatasetLater} />
      </Flex>
    </Card>
  );
}
