// The Similar items page (docs/product.md, Datasets §2): the query items (pre-selected from sample_ids), a
// feature to compare them by, and the dataset's most similar items ranked by similarity score.
// The query items are a subset's items (those in sample_ids ticked, or all), or, for the subset
// id 'selection', the explorer's selection given in sample_ids; items of the subset (or of the
// selection) are never answered.
import { ArrowLeftOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import type { DataLevel, ExploreItem } from '@loupe/contracts';
import {
  Button,
  Card,
  Checkbox,
  Flex,
  Form,
  Result,
  Select,
  Spin,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useCurrentUser } from '../../api/hooks/useCurrentUser';
import { useLicense } from '../../api/hooks/useLicense';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { ErrorFallback } from '../../components/ErrorFallback';
import { ItemThumbnail } from '../../components/ItemThumbnail';
import { Page, type Crumb } from '../../components/Page';
import { useDelayedFlag } from '../../lib/useDelayedFlag';
import { useItemPreviews } from '../../api/hooks/useItemPreviews';
import { useDataset } from '../datasets';
import { useQuerySubset } from './hooks/useQuerySubset';
import { useQueryItemFeatures, useSimilarItems } from './hooks/useSimilarItems';
import {
  SELECTION_SUBSET,
  dataLevelOf,
  levelWord,
  parseSampleIds,
  preselected,
  usableFeatures,
} from './similarRules';
import { similarStrings as strings } from './strings';

/** How long the search may take before the page says the first computation takes longer. */
export const LONG_WAIT_MS = 5000;
const CARD_PX = 168;
const QUERY_THUMB_PX = 64;
/** Query items shown (and previewed) in the settings card; the search uses all of them. */
const MAX_SHOWN_QUERY_ITEMS = 1000;

function LicenseFallback() {
  const { isAdmin } = useCurrentUser();
  return (
    <Page title={strings.invalidLicense}>
      <Result
        status="warning"
        title={strings.invalidLicense}
        subTitle={isAdmin ? strings.invalidLicenseText : strings.invalidLicenseMemberText}
        extra={
          isAdmin && (
            <Link to="/settings/license">
              <Button type="primary" icon={<SettingOutlined />}>
                {strings.goToSettings}
              </Button>
            </Link>
          )
        }
      />
    </Page>
  );
}

export function SimilarItemsPage() {
  const license = useLicense();
  if (license.data && license.data.state !== 'LICENSED') return <LicenseFallback />;
  return <SimilarItems />;
}

function ResultCard({
  item,
  id,
  score,
}: {
  item: ExploreItem | undefined;
  id: string;
  score: number;
}) {
  const { token } = theme.useToken();
  return (
    <Card
      size="small"
      data-testid="similar-card"
      data-item-id={id}
      styles={{ body: { padding: 8 } }}
      style={{ width: CARD_PX + 18 }}
    >
      <ItemThumbnail item={item} size={CARD_PX} />
      <Typography.Text
        ellipsis={{ tooltip: id }}
        style={{ display: 'block', marginTop: 6, fontSize: token.fontSizeSM }}
      >
        {item?.label ?? id}
      </Typography.Text>
      <Tag color="processing" style={{ marginTop: 4, marginInlineEnd: 0 }}>
        {strings.score(score)}
      </Tag>
    </Card>
  );
}

function SimilarItems() {
  const { datasetId = '', subsetId = '', predictionSetId } = useParams();
  const [search] = useSearchParams();
  const { token } = theme.useToken();
  const dataset = useDataset(datasetId);
  const fromSelection = subsetId === SELECTION_SUBSET;
  const subset = useQuerySubset(datasetId, subsetId);
  const namedIds = useMemo(() => parseSampleIds(search.get('sample_ids')), [search]);
  // The candidate query items: the subset's items, or the selection named in the URL.
  const sampleIds = useMemo(
    () => (fromSelection ? namedIds : (subset.data?.sample_ids ?? [])),
    [fromSelection, namedIds, subset.data],
  );
  const ticked = useMemo(
    () => (fromSelection ? new Set(sampleIds) : preselected(sampleIds, namedIds)),
    [fromSelection, sampleIds, namedIds],
  );
  // The user's ticks and unticks over the pre-selection.
  const [overrides, setOverrides] = useState<ReadonlyMap<string, boolean>>(new Map());
  const isTicked = (id: string) => overrides.get(id) ?? ticked.has(id);
  const queryIds = useMemo(
    () => sampleIds.filter((id) => overrides.get(id) ?? ticked.has(id)),
    [sampleIds, ticked, overrides],
  );
  const shownIds = useMemo(() => sampleIds.slice(0, MAX_SHOWN_QUERY_ITEMS), [sampleIds]);
  let dataLevel: DataLevel | null = null;
  if (!fromSelection) dataLevel = subset.data?.data_level ?? null;
  else if (dataset.data) dataLevel = dataLevelOf(dataset.data.task_type, search.get('data_level'));
  const level = dataLevel ?? 'image';

  const features = useQueryItemFeatures(datasetId, level, dataLevel ? queryIds : []);
  const usable = useMemo(
    () => usableFeatures(features.data?.features ?? [], queryIds.length),
    [features.data, queryIds.length],
  );
  const [chosenFeature, setChosenFeature] = useState<string | null>(null);
  const feature =
    chosenFeature && usable.some((f) => f.feature_name === chosenFeature)
      ? chosenFeature
      : (usable[0]?.feature_name ?? null);
  const similar = useSimilarItems(datasetId, {
    data_level: level,
    item_ids: queryIds,
    feature_name: feature,
    // Items already among the query ("in this subset") are never answered.
    exclude_ids: sampleIds,
  });
  // The server's count once it answered; until then what the item features say.
  const ignored =
    similar.data?.feature_name === feature
      ? similar.data.ignored
      : (usable.find((f) => f.feature_name === feature)?.num_missing ?? 0);

  const waiting = similar.isPending;
  const longWait = useDelayedFlag(feature !== null && waiting, LONG_WAIT_MS);
  const ranked = useMemo(
    () => (similar.data ? [...similar.data.items].sort((a, b) => b.similarity - a.similarity) : []),
    [similar.data],
  );
  const queryPreviews = useItemPreviews(datasetId, level, shownIds, predictionSetId);
  const resultPreviews = useItemPreviews(
    datasetId,
    level,
    ranked.slice(0, 1000).map((item) => item.id),
    predictionSetId,
  );

  const root = predictionSetId
    ? `/models/datasets/${datasetId}/predictions/${predictionSetId}`
    : `/datasets/${datasetId}`;
  const subsetName = fromSelection ? strings.explore : (subset.data?.name ?? strings.subset);
  const backHref = fromSelection ? `${root}/explore` : `${root}/subsets/${subsetId}`;
  const breadcrumbs: Crumb[] = [
    { title: strings.datasets, to: '/datasets' },
    ...(dataset.data ? [{ title: dataset.data.name, to: `${root}/overview` }] : []),
    { title: subsetName, to: backHref },
  ];
  const backButton = (
    <Link to={backHref}>
      <Button icon={<ArrowLeftOutlined />}>{strings.backTo(subsetName)}</Button>
    </Link>
  );

  if (dataset.isError)
    return (
      <Page title={strings.title} breadcrumbs={breadcrumbs}>
        {isNotFound(dataset.error) ? (
          <NotFoundState title={strings.datasetNotFound} />
        ) : (
          <ErrorFallback title={strings.failed} error={dataset.error} />
        )}
      </Page>
    );
  if (!fromSelection && subset.isError)
    return (
      <Page title={strings.title} breadcrumbs={breadcrumbs.slice(0, -1)}>
        {isNotFound(subset.error) ? (
          <NotFoundState title={strings.subsetNotFound} />
        ) : (
          <ErrorFallback
            title={strings.subsetNotFound}
            error={subset.error}
            onRetry={() => void subset.refetch()}
          />
        )}
      </Page>
    );
  if (!dataset.data || dataLevel === null)
    return (
      <Page title={strings.title} breadcrumbs={breadcrumbs}>
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin />
        </Flex>
      </Page>
    );
  if (sampleIds.length === 0)
    return (
      <Page title={strings.title} breadcrumbs={breadcrumbs}>
        <Result
          status="info"
          title={fromSelection ? strings.noQuery : strings.emptySubset}
          subTitle={fromSelection ? strings.noQueryText : undefined}
          extra={backButton}
        />
      </Page>
    );

  const noFeatures = queryIds.length > 0 && features.isSuccess && usable.length === 0;
  let results: React.ReactNode;
  if (queryIds.length === 0) {
    results = <Result status="info" title={strings.noQuery} />;
  } else if (features.isError) {
    results = (
      <ErrorFallback
        title={strings.failed}
        error={features.error}
        onRetry={() => void features.refetch()}
      />
    );
  } else if (noFeatures) {
    results = (
      <Result
        status="info"
        title={strings.noFeaturesTitle}
        subTitle={strings.noFeaturesText}
        extra={
          <Link to={`${root}/features`}>
            <Button type="primary" icon={<UploadOutlined />}>
              {strings.uploadFeatures}
            </Button>
          </Link>
        }
      />
    );
  } else if (similar.isError) {
    results = (
      <ErrorFallback
        title={strings.failed}
        error={similar.error}
        onRetry={() => void similar.refetch()}
      />
    );
  } else if (waiting) {
    results = (
      <Flex vertical align="center" gap={12} style={{ padding: 48 }} role="status">
        <Spin size="large" />
        <Typography.Text>{strings.loading}</Typography.Text>
        {longWait && (
          <Flex vertical align="center" gap={12} data-testid="similar-long-wait">
            <Typography.Text type="secondary" style={{ maxWidth: 460, textAlign: 'center' }}>
              {strings.firstComputation}
            </Typography.Text>
            {backButton}
          </Flex>
        )}
      </Flex>
    );
  } else if (ranked.length === 0) {
    results = (
      <Result
        status="info"
        title={strings.noneFound(levelWord(level))}
        subTitle={strings.allInSubset(levelWord(level))}
      />
    );
  } else {
    results = (
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{strings.results(ranked.length)}</Typography.Text>
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: `repeat(auto-fill, ${CARD_PX + 18}px)`,
            gap: 12,
          }}
        >
          {ranked.map(({ id, similarity }) => (
            <ResultCard key={id} id={id} score={similarity} item={resultPreviews.data?.get(id)} />
          ))}
        </div>
      </Flex>
    );
  }

  return (
    <Page title={strings.title} breadcrumbs={breadcrumbs} tools={backButton} testId="similar-items">
      <Flex gap={24} align="flex-start" wrap>
        <Card
          title={strings.settingsTitle}
          size="small"
          style={{ width: 320, flex: 'none' }}
          data-testid="similar-settings"
        >
          <Form layout="vertical" requiredMark={false}>
            <Form.Item
              label={strings.feature}
              htmlFor="similar-feature"
              style={{ marginBottom: 12 }}
            >
              <Flex align="center" gap={8}>
                <Select
                  id="similar-feature"
                  aria-label={strings.feature}
                  style={{ flex: 1, minWidth: 0 }}
                  value={feature ?? undefined}
                  loading={features.isPending && queryIds.length > 0}
                  disabled={usable.length === 0}
                  options={usable.map((f) => ({ value: f.feature_name, label: f.feature_name }))}
                  onChange={(value: string) => setChosenFeature(value)}
                />
                {feature && ignored > 0 && (
                  <Tooltip title={strings.ignoredTooltip(feature)}>
                    <Tag
                      color="warning"
                      style={{ marginInlineEnd: 0 }}
                      data-testid="similar-ignored"
                    >
                      {strings.ignored(ignored)}
                    </Tag>
                  </Tooltip>
                )}
              </Flex>
            </Form.Item>
          </Form>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {strings.queryItems(queryIds.length, sampleIds.length)}
          </Typography.Text>
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: `repeat(4, ${QUERY_THUMB_PX}px)`,
              gap: 6,
              marginTop: 8,
              maxHeight: 320,
              overflowY: 'auto',
            }}
          >
            {shownIds.map((id) => {
              const checked = isTicked(id);
              return (
                <label
                  key={id}
                  title={id}
                  data-testid="similar-query-item"
                  style={{ position: 'relative', cursor: 'pointer', opacity: checked ? 1 : 0.45 }}
                >
                  <ItemThumbnail item={queryPreviews.data?.get(id)} size={QUERY_THUMB_PX} />
                  <Checkbox
                    aria-label={id}
                    checked={checked}
                    style={{ position: 'absolute', top: 2, left: 4 }}
                    onChange={(event) =>
                      setOverrides((current) => new Map(current).set(id, event.target.checked))
                    }
                  />
                </label>
              );
            })}
          </div>
        </Card>
        <div style={{ flex: 1, minWidth: 320 }}>{results}</div>
      </Flex>
    </Page>
  );
}
