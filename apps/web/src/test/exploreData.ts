// Datasets, items and metadata fields as the explorer's calls answer them, for the tests of the
// item viewer, the explorer's cards, and the metadata and features pages.
import type { Dataset, ExploreItem, ExploreObject, MetadataFieldInfo } from '@loupe/contracts';

export const DATASET_ID = '5d2f7a1c-2b3e-4c5d-8e9f-0a1b2c3d4e5f';

export function viewerDataset(change: Partial<Dataset> = {}): Dataset {
  return {
    id: DATASET_ID,
    name: 'street-scenes',
    description: '',
    task_type: 'object_detection',
    issues_count: 0,
    views: [],
    class_names: ['car', 'person'],
    classes_count: 2,
    objects_count: 4,
    predictions_count: 1,
    updated_ts: 0,
    preview_urls: [],
    splits: ['train', 'test'],
    iou_threshold: 0.5,
    thumbnails_enabled: true,
    ...change,
  };
}

export function object(change: Partial<ExploreObject> & { id: string }): ExploreObject {
  return { label: 'car', type: 'gt', coords: [0.1, 0.1, 0.5, 0.5], ...change };
}

/** The image item of table row `row`: one ground-truth car, one predicted person. */
export function imageItem(row: number, change: Partial<ExploreItem> = {}): ExploreItem {
  const id = `frame-${row}.jpg`;
  return {
    id,
    row,
    data_level: 'image',
    sample_id: id,
    type: 'gt',
    media_type: 'image',
    src: `/api/media/${row}.jpg`,
    thumbnail_src: `/api/thumbs/${row}.webp`,
    spectrogram_src: null,
    width: 640,
    height: 480,
    duration: null,
    crop: null,
    split: 'train',
    label: null,
    labels: null,
    values: null,
    transcript: null,
    mask_src: null,
    prediction: null,
    objects: [
      object({ id: `${id}#0`, label: 'car', type: 'gt', coords: [0.1, 0.1, 0.5, 0.5] }),
      object({
        id: `${id}#p0`,
        label: 'person',
        type: 'pred',
        score: 0.87,
        coords: [0.5, 0.5, 0.9, 0.8],
      }),
    ],
    metadata: { brightness: 0.51234, city: 'Oslo' },
    ...change,
  };
}

export function metadataField(
  change: Partial<MetadataFieldInfo> & { id: string },
): MetadataFieldInfo {
  return {
    name: change.id,
    label: change.id,
    description: '',
    group: 'Image',
    source: 'computed',
    state: 'available',
    type: 'numeric',
    num_missing: 0,
    num_total: 300,
    ...change,
  };
}
