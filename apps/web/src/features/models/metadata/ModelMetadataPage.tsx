// The model metadata page (docs/product.md, Models §2, §4): the metadata fields of a data level
// with the model's own (predicted label, score, correctness, errors…); each opens the model's
// explorer coloured and sorted by it, except a field being recomputed, which shows its loading
// state and is asked again every 3 s until available.
import {
  DATA_LEVELS,
  type DataLevel,
  type Dataset,
  type MetadataFieldInfo,
  type PredictionSet,
} from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { Flex, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { metadataInfoQuery } from '../../../api/queries/explore';
import { ErrorFallback } from '../../../components/ErrorFallback';
import { fieldName, MetadataFieldTable } from '../../../components/MetadataFieldTable';
import { ModelPageFrame } from '../ModelPageFrame';
import { exploreByField } from './metadataRules';
import { modelMetadataStrings as strings } from './strings';

export function ModelMetadataPage() {
  return (
    <ModelPageFrame
      title={strings.title}
      testId="model-metadata"
      loadFailedTitle={strings.loadFailed}
    >
      {({ dataset, model }) => <ModelMetadata dataset={dataset} model={model} />}
    </ModelPageFrame>
  );
}

function ModelMetadata({ dataset, model }: { dataset: Dataset; model: PredictionSet }) {
  const levels = DATA_LEVELS[dataset.task_type];
  const [dataLevel, setDataLevel] = useState<DataLevel>(levels[0]!);
  const fields = useQuery(metadataInfoQuery(dataset.id, dataLevel, model.id));

  if (fields.error)
    return (
      <ErrorFallback
        title={strings.loadFailed}
        error={fields.error}
        onRetry={() => void fields.refetch()}
      />
    );

  const name = (field: MetadataFieldInfo) =>
    // A pending field cannot colour or sort the explorer yet: not a link.
    field.state === 'pending' ? (
      <Flex gap={8} align="center" aria-disabled="true" data-testid="metadata-pending">
        <Spin size="small" />
        <Typography.Text type="secondary">{fieldName(field)}</Typography.Text>
        <Tag color="processing">{strings.recomputing}</Tag>
      </Flex>
    ) : (
      <Link
        to={exploreByField(dataset.id, model.id, dataLevel, field.id)}
        title={strings.openHint}
        data-testid="metadata-link"
      >
        <Typography.Text strong style={{ color: 'inherit' }}>
          {fieldName(field)}
        </Typography.Text>
      </Link>
    );

  return (
    <MetadataFieldTable
      levels={levels}
      dataLevel={dataLevel}
      onDataLevelChange={setDataLevel}
      fields={fields.data?.metadata_config}
      renderName={name}
      testId="model-metadata-table"
    />
  );
}
