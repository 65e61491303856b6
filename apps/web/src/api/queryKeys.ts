// One query-key factory per resource, so invalidating after a mutation is one line.
export const queryKeys = {
  appState: () => ['appState'] as const,
  users: {
    all: () => ['users'] as const,
    list: () => ['users', 'list'] as const,
  },
  settings: {
    apiKey: () => ['settings', 'apiKey'] as const,
    license: () => ['settings', 'license'] as const,
    tokens: () => ['settings', 'tokens'] as const,
  },
  datasets: {
    all: () => ['datasets'] as const,
    list: () => ['datasets', 'list'] as const,
    models: (datasetId: string) => ['datasets', datasetId, 'models'] as const,
    detail: (datasetId: string) => ['datasets', datasetId, 'detail'] as const,
    history: (datasetId: string) => ['datasets', datasetId, 'history'] as const,
    thumbnails: (datasetId: string) => ['datasets', datasetId, 'thumbnails'] as const,
    iouThreshold: (datasetId: string) => ['datasets', datasetId, 'iouThreshold'] as const,
  },
  activities: {
    all: () => ['activities'] as const,
    list: (scope: 'my' | 'all') => ['activities', scope] as const,
  },
  models: {
    list: () => ['models', 'list'] as const,
  },
  latestVersion: (url: string) => ['latestVersion', url] as const,
};
