// The model features page (docs/product.md, Models §2): the model's own features, its dataset's,
// and, where attributions are supported, its attributions with their associated features (the
// model's own sample-level features, docs/formats.md), each deletable after a confirmation.
import { DeleteOutlined } from '@ant-design/icons';
import {
  attributionsSupported,
  type AttributionOverview,
  type Dataset,
  type FeatureInfo,
  type PredictionSet,
} from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Empty,
  Flex,
  Popconfirm,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import type { ReactNode } from 'react';
import { describeError } from '../../../api/ApiError';
import { useLicense } from '../../../api/hooks/useLicense';
import { attributionsOverviewQuery, modelFeaturesQuery } from '../../../api/queries/attributions';
import { DelayedLoading } from '../../../components/DelayedLoading';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import { ErrorFallback } from '../../../components/ErrorFallback';
import { FeatureTable, listedColumns } from '../../../components/FeatureTable';
import { ModelPageFrame } from '../ModelPageFrame';
import { useDeleteAttribution } from './hooks/useDeleteAttribution';
import { modelFeaturesStrings as strings } from './strings';

export function ModelFeaturesPage() {
  return (
    <ModelPageFrame
      title={strings.title}
      testId="model-features"
      loadFailedTitle={strings.loadFailed}
    >
      {({ dataset, model }) => <ModelFeatures dataset={dataset} model={model} />}
    </ModelPageFrame>
  );
}

function Section({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} data-testid={testId}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

function EmptyTable({ title, hint }: { title: string; hint?: string }) {
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <Flex vertical gap={4}>
          <Typography.Text strong>{title}</Typography.Text>
          {hint && <Typography.Text type="secondary">{hint}</Typography.Text>}
        </Flex>
      }
    />
  );
}

function Features({ features, empty }: { features: FeatureInfo[]; empty: ReactNode }) {
  return features.length === 0 ? <>{empty}</> : <FeatureTable features={features} />;
}

function ModelFeatures({ dataset, model }: { dataset: Dataset; model: PredictionSet }) {
  const supported = attributionsSupported(dataset.task_type);
  const features = useQuery(modelFeaturesQuery(dataset.id, model.id));
  const attributions = useQuery({
    ...attributionsOverviewQuery(dataset.id, model.id),
    enabled: supported,
  });
  const remove = useDeleteAttribution(dataset.id, model.id);
  const licensed = useLicense().data?.state === 'LICENSED';
  const { message, notification } = App.useApp();

  const failure = features.error ?? attributions.error;
  if (failure)
    return (
      <ErrorFallback
        title={strings.loadFailed}
        error={failure}
        onRetry={() => {
          void features.refetch();
          if (supported) void attributions.refetch();
        }}
      />
    );
  if (!features.data || (supported && !attributions.data)) return <DelayedLoading />;

  const deleteAttribution = (name: string) =>
    remove.mutateAsync(name).then(
      () => void message.success(strings.deleted(name)),
      (error: unknown) =>
        void notification.error({ title: strings.deleteFailed, description: describeError(error) }),
    );

  const listed = listedColumns<AttributionOverview>();
  const attributionColumns: TableColumnsType<AttributionOverview> = [
    listed.name,
    {
      key: 'associated_features',
      title: strings.associatedFeatures,
      dataIndex: 'associated_features',
      render: (names: string[]) =>
        names.length === 0 ? (
          <Tooltip title={strings.noAssociatedFeaturesHint}>
            <Typography.Text type="secondary">{strings.noAssociatedFeatures}</Typography.Text>
          </Tooltip>
        ) : (
          <Flex wrap gap={4}>
            {names.map((name) => (
              <Tag key={name}>{name}</Tag>
            ))}
          </Flex>
        ),
    },
    listed.dataLevel,
    listed.present,
    listed.missing,
    {
      key: 'actions',
      title: strings.actions,
      align: 'right',
      render: (_, attribution) => (
        <DisabledTooltip reason={licensed ? null : strings.needsLicense}>
          <Popconfirm
            title={strings.deleteTitle(attribution.name)}
            description={strings.deleteDescription}
            okText={strings.delete}
            okButtonProps={{ danger: true }}
            onConfirm={() => deleteAttribution(attribution.name)}
            disabled={!licensed}
          >
            <Button
              danger
              size="small"
              icon={<DeleteOutlined />}
              disabled={!licensed}
              loading={remove.isPending && remove.variables === attribution.name}
              aria-label={`${strings.delete} ${attribution.name}`}
            >
              {strings.delete}
            </Button>
          </Popconfirm>
        </DisabledTooltip>
      ),
    },
  ];

  return (
    <Flex vertical gap={32}>
      <Section title={strings.modelFeatures} testId="model-features-table">
        <Features
          features={features.data.predictions_features}
          empty={<EmptyTable title={strings.noModelFeatures} hint={strings.noModelFeaturesHint} />}
        />
      </Section>
      <Section title={strings.datasetFeatures} testId="dataset-features-table">
        <Features
          features={features.data.dataset_features}
          empty={<EmptyTable title={strings.noDatasetFeatures} />}
        />
      </Section>
      {supported && attributions.data && (
        <Section title={strings.attributions} testId="attributions-table">
          {attributions.data.length === 0 ? (
            <EmptyTable title={strings.noAttributions} hint={strings.noAttributionsHint} />
          ) : (
            <Table<AttributionOverview>
              rowKey="id"
              size="middle"
              columns={attributionColumns}
              dataSource={attributions.data}
              pagination={false}
            />
          )}
        </Section>
      )}
    </Flex>
  );
}
