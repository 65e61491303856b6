// A per-item breakdown: per sample, per ground-truth mask, per ground-truth object or per
// predicted object. The segment bar selects a category; its tab shows the count, the explore
// links and, for object sections, the item-level subcategories of the category with their
// drawings, counts, fractions and explore links (A only, B only or both); the distribution of
// the difference B − A (the whole section's, or a subcategory's) closes the section.
import {
  COMPARISON_CATEGORY_LABELS,
  comparisonSegments,
  OBJECT_SUBCATEGORIES,
  OBJECT_SUBCATEGORY_CATEGORY,
  type ComparisonCategory,
  type ComparisonSection,
  type ObjectSubcategory,
  type TaskType,
} from '@loupe/contracts';
import { formatPercentage } from '@loupe/metrics';
import { Card, Col, Empty, Flex, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import { SectionCard } from '../../performance/components/SectionCard';
import { exploreSides } from '../comparisonRules';
import { DistributionView } from '../components/DistributionView';
import { ExploreLinks } from '../components/ExploreLinks';
import { SegmentBar } from '../components/SegmentBar';
import { SubcategoryIllustration } from '../components/SubcategoryIllustration';
import {
  compareStrings as strings,
  PREDICTED_TP_TP,
  SUBCATEGORY_TEXTS,
  UNIT_WORDS,
} from '../strings';

const SECTION_TEXTS = {
  sample: { title: strings.perSample, help: strings.perSampleHelp },
  mask: { title: strings.perMask, help: strings.perMaskHelp },
  ground_truth_object: { title: strings.groundTruthObjects, help: strings.groundTruthHelp },
  predicted_object: { title: strings.predictedObjects, help: strings.predictedHelp },
} as const;

export interface ItemSectionProps {
  datasetId: string;
  task: TaskType;
  section: ComparisonSection;
}

export function ItemSection({ datasetId, task, section }: ItemSectionProps) {
  const labels = COMPARISON_CATEGORY_LABELS[task];
  const { title, help } = SECTION_TEXTS[section.unit];
  const word = UNIT_WORDS[section.unit];
  const categories = comparisonSegments(task);
  const [active, setActive] = useState<ComparisonCategory>(
    () => categories.find((category) => section[category].num_items > 0) ?? categories[0]!,
  );
  const [distributionOf, setDistributionOf] = useState<ObjectSubcategory | 'section'>('section');
  const subcategories = OBJECT_SUBCATEGORIES.filter(
    (subcategory) => section.subcategories[subcategory] !== undefined,
  );
  const activeCount = section[active];
  const ofActive = subcategories.filter(
    (subcategory) => OBJECT_SUBCATEGORY_CATEGORY[subcategory] === active,
  );
  const shownDistribution =
    distributionOf === 'section'
      ? section.distribution
      : (section.subcategories[distributionOf]?.distribution ?? section.distribution);
  const subcategoryTitle = (subcategory: ObjectSubcategory) =>
    section.unit === 'predicted_object' && subcategory === 'tp_a_tp_b'
      ? PREDICTED_TP_TP.title
      : SUBCATEGORY_TEXTS[subcategory].title;

  return (
    <SectionCard title={title} label={title}>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{help}</Typography.Text>
        <Flex vertical gap={2}>
          <Typography.Text data-testid="section-summary">
            {strings.summary(
              section.model_a_is_better.num_items,
              section.model_b_is_better.num_items,
            )}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {strings.sectionClickHint}
          </Typography.Text>
        </Flex>
        <SegmentBar
          label={title}
          active={active}
          onSelect={setActive}
          segments={categories.map((category) => ({
            category,
            label: labels[category],
            count: section[category].num_items,
            countText: word(section[category].num_items),
          }))}
        />
        <div role="tabpanel" aria-label={labels[active]} data-testid="section-tab">
          <Flex vertical gap={8}>
            <Flex gap={12} align="baseline" wrap="wrap">
              <Typography.Text strong>{labels[active]}</Typography.Text>
              <Typography.Text>{word(activeCount.num_items)}</Typography.Text>
              <Typography.Text type="secondary">
                {strings.fractionOf(formatPercentage(activeCount.fraction_of_total_items))}
              </Typography.Text>
              <ExploreLinks datasetId={datasetId} config={activeCount.explore_config} />
            </Flex>
            {ofActive.length > 0 && (
              <Row gutter={[12, 12]} role="list" aria-label={strings.subcategories}>
                {ofActive.map((subcategory) => {
                  const result = section.subcategories[subcategory]!;
                  const text =
                    section.unit === 'predicted_object' && subcategory === 'tp_a_tp_b'
                      ? PREDICTED_TP_TP.text
                      : SUBCATEGORY_TEXTS[subcategory].text;
                  return (
                    <Col key={subcategory} xs={24} md={12} xl={8} role="listitem">
                      <Card
                        size="small"
                        data-testid={`subcategory-${subcategory}`}
                        style={{ height: '100%' }}
                      >
                        <Flex gap={12}>
                          <SubcategoryIllustration subcategory={subcategory} />
                          <Flex vertical gap={2} style={{ minWidth: 0 }}>
                            <Typography.Text strong>
                              {subcategoryTitle(subcategory)}
                            </Typography.Text>
                            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                              {text}
                            </Typography.Text>
                            <Typography.Text>
                              {`${word(result.num_items)} · ${formatPercentage(result.fraction_of_total_items)}`}
                            </Typography.Text>
                            <ExploreLinks
                              datasetId={datasetId}
                              config={result.explore_config}
                              sides={exploreSides(subcategory)}
                              vertical
                            />
                          </Flex>
                        </Flex>
                      </Card>
                    </Col>
                  );
                })}
              </Row>
            )}
            {activeCount.num_items === 0 && ofActive.length === 0 && (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noItems} />
            )}
          </Flex>
        </div>
        <Flex vertical gap={4}>
          <Flex gap={8} align="center" wrap="wrap">
            <Typography.Text strong>{strings.distribution}</Typography.Text>
            {subcategories.length > 0 && (
              <Select
                size="small"
                aria-label={strings.distributionOf}
                value={distributionOf}
                onChange={setDistributionOf}
                style={{ minWidth: 220 }}
                popupMatchSelectWidth={false}
                options={[
                  { value: 'section', label: strings.wholeSection },
                  ...subcategories.map((subcategory) => ({
                    value: subcategory,
                    label: subcategoryTitle(subcategory),
                  })),
                ]}
              />
            )}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {shownDistribution.x_label}
            </Typography.Text>
          </Flex>
          <DistributionView
            datasetId={datasetId}
            label={`${title} ${strings.distribution}`}
            distribution={shownDistribution}
            sides={distributionOf === 'section' ? undefined : exploreSides(distributionOf)}
          />
        </Flex>
      </Flex>
    </SectionCard>
  );
}
