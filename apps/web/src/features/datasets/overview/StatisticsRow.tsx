// The overview's statistics: Samples (to the explorer), Classes, Ground-truth objects (explorer at
// object level), Predictions (to the models list), Subsets — each shown only when non-zero, but
// Samples always (docs/product.md, Datasets §2).
import type { Dataset } from '@loupe/contracts';
import { Card, Col, Row, Statistic } from 'antd';
import { useNavigate, type To } from 'react-router';
import { datasetStrings as strings } from '../strings';

interface Stat {
  key: string;
  title: string;
  value: number;
  to?: To;
}

export function overviewStatistics(dataset: Dataset, subsets = 0): Stat[] {
  const explore = `/datasets/${encodeURIComponent(dataset.id)}/explore`;
  const stats: (Stat | false)[] = [
    { key: 'samples', title: strings.statSamples, value: dataset.samples_count ?? 0, to: explore },
    dataset.classes_count > 0 && {
      key: 'classes',
      title: strings.statClasses,
      value: dataset.classes_count,
    },
    dataset.objects_count > 0 && {
      key: 'objects',
      title: strings.statObjects,
      value: dataset.objects_count,
      // The explorer reads its data level from the URL's `level` (its exploreState.ts).
      to: `${explore}?level=image_object`,
    },
    dataset.predictions_count > 0 && {
      key: 'predictions',
      title: strings.statPredictions,
      value: dataset.predictions_count,
      to: '/models',
    },
    subsets > 0 && {
      key: 'subsets',
      title: strings.statSubsets,
      value: subsets,
      to: `/datasets/${encodeURIComponent(dataset.id)}/subsets`,
    },
  ];
  return stats.filter((stat): stat is Stat => stat !== false);
}

/** `subsets`: how many subsets the dataset has (0 while unknown: the statistic stays hidden). */
export function StatisticsRow({ dataset, subsets = 0 }: { dataset: Dataset; subsets?: number }) {
  const navigate = useNavigate();
  return (
    <Row gutter={[12, 12]}>
      {overviewStatistics(dataset, subsets).map((stat) => (
        <Col key={stat.key} xs={12} md={8} xl={6}>
          <Card
            size="small"
            hoverable={Boolean(stat.to)}
            role={stat.to ? 'link' : undefined}
            tabIndex={stat.to ? 0 : undefined}
            aria-label={`${stat.title}: ${stat.value}`}
            data-testid={`stat-${stat.key}`}
            onClick={() => stat.to && void navigate(stat.to)}
            onKeyDown={(event) => event.key === 'Enter' && stat.to && void navigate(stat.to)}
            style={{ cursor: stat.to ? 'pointer' : 'default', height: '100%' }}
          >
            <Statistic title={stat.title} value={stat.value} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
