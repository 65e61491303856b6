// Shared fixtures of the web app's tests: values as the server answers them, which each feature's
// test data adapts to its own story by overrides.
import type { Dataset } from '@loupe/contracts';

/**
 * A valid dataset: a two-class classification dataset named pets, updated now. Features pass
 * their own id and whatever their tests rely on.
 */
export function datasetFixture(overrides: Partial<Dataset> = {}): Dataset {
  return {
    id: '00000000-0000-4000-8000-000000000000',
    name: 'pets',
    description: '',
    task_type: 'classification',
    issues_count: 0,
    samples_count: 100,
    views: [{ id: 'default', name: 'Image' }],
    class_names: ['cat', 'dog'],
    classes_count: 2,
    objects_count: 0,
    predictions_count: 0,
    updated_ts: Math.floor(Date.now() / 1000),
    preview_urls: [],
    splits: ['train', 'test'],
    iou_threshold: 0.5,
    thumbnails_enabled: true,
    ...overrides,
  };
}
