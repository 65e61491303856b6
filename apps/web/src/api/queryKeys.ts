// The one query-key factory, a branch per resource, so invalidating after a mutation is one
// line. Keys are used by the query factories in queries/ (one key, one query function) and by
// mutations to invalidate; nothing else spells a key.
export const queryKeys = {
  appState: () => ['appState'] as const,
  users: {
    all: () => ['users'] as const,
    list: () => ['users', 'list'] as const,
  },
  settings: {
    apiKey: () => ['settings', 'apiKey'] as const,
    apiKeys: () => ['settings', 'apiKeys'] as const,
    license: () => ['settings', 'license'] as const,
    tokens: () => ['settings', 'tokens'] as const,
  },
  datasets: {
    all: () => ['datasets'] as const,
    list: () => ['datasets', 'list'] as const,
    /** Everything cached about one dataset (its detail, history, settings, models). */
    one: (datasetId: string) => ['datasets', datasetId] as const,
    models: (datasetId: string) => ['datasets', datasetId, 'models'] as const,
    detail: (datasetId: string) => ['datasets', datasetId, 'detail'] as const,
    history: (datasetId: string) => ['datasets', datasetId, 'history'] as const,
    thumbnails: (datasetId: string) => ['datasets', datasetId, 'thumbnails'] as const,
    iouThreshold: (datasetId: string) => ['datasets', datasetId, 'iouThreshold'] as const,
  },
  explore: {
    all: (datasetId: string) => ['explore', datasetId] as const,
    itemRows: (datasetId: string, query: unknown) =>
      ['explore', datasetId, 'itemRows', query] as const,
    itemIds: (datasetId: string, query: unknown) =>
      ['explore', datasetId, 'itemIds', query] as const,
    items: (datasetId: string, body: unknown) => ['explore', datasetId, 'items', body] as const,
    itemBatch: (datasetId: string, rowsQuery: unknown, version: number, start: number) =>
      ['explore', datasetId, 'itemBatch', rowsQuery, version, start] as const,
    metadataInfo: (
      datasetId: string,
      dataLevel: string,
      predictionsId?: string,
      comparison?: unknown,
    ) =>
      [
        'explore',
        datasetId,
        'metadataInfo',
        dataLevel,
        predictionsId ?? null,
        ...(comparison ? [comparison] : []),
      ] as const,
    histogram: (datasetId: string, query: unknown) =>
      ['explore', datasetId, 'histogram', query] as const,
    colorMap: (datasetId: string) => ['explore', datasetId, 'colorMap'] as const,
    features: (datasetId: string) => ['explore', datasetId, 'features'] as const,
    itemFeatures: (datasetId: string, query: unknown) =>
      ['explore', datasetId, 'itemFeatures', query] as const,
  },
  embeddings: {
    all: (datasetId: string) => ['embeddings', datasetId] as const,
    settings: (datasetId: string, dataLevel: string, predictionsId?: string) =>
      ['embeddings', datasetId, 'settings', dataLevel, predictionsId ?? null] as const,
    points: (datasetId: string, query: unknown) =>
      ['embeddings', datasetId, 'points', query] as const,
    similarItems: (datasetId: string, query: unknown) =>
      ['embeddings', datasetId, 'similarItems', query] as const,
  },
  subsets: {
    /** Every subset query of a dataset (list and details): invalidate after any subset write. */
    all: (datasetId: string) => ['subsets', datasetId] as const,
    list: (datasetId: string) => ['subsets', datasetId, 'list'] as const,
    detail: (datasetId: string, subsetId: string) =>
      ['subsets', datasetId, 'detail', subsetId] as const,
  },
  activities: {
    all: () => ['activities'] as const,
    list: (scope: 'my' | 'all') => ['activities', scope] as const,
  },
  models: {
    list: () => ['models', 'list'] as const,
    /** A model's own features and its dataset's. */
    features: (datasetId: string, predictionSetId: string) =>
      ['models', datasetId, predictionSetId, 'features'] as const,
  },
  attributions: {
    /** Every attribution read of a model: invalidate after deleting one. */
    all: (datasetId: string, predictionSetId: string) =>
      ['attributions', datasetId, predictionSetId] as const,
    overview: (datasetId: string, predictionSetId: string, dataLevel?: string) =>
      ['attributions', datasetId, predictionSetId, 'overview', dataLevel ?? null] as const,
  },
  /**
   * A model's performance, kept under its dataset's keys: every edit of the dataset (and a new
   * IoU threshold) invalidates `queryKeys.datasets.one`, which makes these stale too.
   */
  performance: {
    dataset: (datasetId: string) => ['datasets', datasetId, 'performance'] as const,
    all: (datasetId: string, predictionSetId: string) =>
      ['datasets', datasetId, 'performance', predictionSetId] as const,
    statistics: (datasetId: string, predictionSetId: string) =>
      ['datasets', datasetId, 'performance', predictionSetId, 'statistics'] as const,
    overall: (datasetId: string, predictionSetId: string) =>
      ['datasets', datasetId, 'performance', predictionSetId, 'overall'] as const,
    finegrained: (datasetId: string, predictionSetId: string) =>
      ['datasets', datasetId, 'performance', predictionSetId, 'finegrained'] as const,
    subsets: (datasetId: string, predictionSetId: string, split: string) =>
      ['datasets', datasetId, 'performance', predictionSetId, 'subsets', split] as const,
    metadata: (datasetId: string, predictionSetId: string, body: unknown) =>
      ['datasets', datasetId, 'performance', predictionSetId, 'metadata', body] as const,
    /** `request`: what identifies the asked slice (a selection by a digest of its ids). */
    itemsSummary: (datasetId: string, predictionSetId: string, request: unknown) =>
      ['datasets', datasetId, 'performance', predictionSetId, 'itemsSummary', request] as const,
    /** The comparison of two models (the request body names both), under the dataset's keys. */
    comparison: (datasetId: string, body: unknown) =>
      ['datasets', datasetId, 'performance', 'comparison', body] as const,
    comparisonSubsets: (datasetId: string, query: unknown) =>
      ['datasets', datasetId, 'performance', 'comparison', 'subsets', query] as const,
  },
  /**
   * A dataset's health checks (docs/health-checks.md), kept under its dataset's keys: every
   * applied edit (which invalidates `queryKeys.datasets.one`) makes them stale too.
   */
  healthChecks: {
    /** Every health-check read of a dataset: invalidate after any check write or ignore. */
    all: (datasetId: string) => ['datasets', datasetId, 'checks'] as const,
    /** The lists of every prediction set. */
    lists: (datasetId: string) => ['datasets', datasetId, 'checks', 'list'] as const,
    list: (datasetId: string, predictionsId?: string) =>
      ['datasets', datasetId, 'checks', 'list', predictionsId ?? null] as const,
    detail: (datasetId: string, checkId: string, predictionsId?: string) =>
      ['datasets', datasetId, 'checks', 'detail', checkId, predictionsId ?? null] as const,
  },
  latestVersion: (url: string, currentVersion: string) =>
    ['latestVersion', url, currentVersion] as const,
};
