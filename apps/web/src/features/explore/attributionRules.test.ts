import type { AttributionOverview } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { attributionPicker, chooseAttribution, shownAttribution } from './attributionRules';

const overview = (name: string, present: number): AttributionOverview => ({
  id: `image:${name}`,
  name,
  associated_features: [],
  data_level: 'image',
  num_present: present,
  num_missing: 10 - present,
});

const base: Parameters<typeof attributionPicker>[0] = {
  predictionsId: 'm1',
  view: 'grid',
  attributions: [overview('gradcam', 4)],
  loading: false,
  failed: false,
};

test('the picker says why there is nothing to choose, in order of what to fix first', () => {
  const message = (change: Partial<typeof base>) => {
    const picker = attributionPicker({ ...base, ...change });
    return picker.kind === 'message' ? picker.message : picker.kind;
  };
  expect(message({ predictionsId: undefined, view: 'embeddings' })).toBe(
    'Select model to explore attributions',
  );
  expect(message({ view: 'split', loading: true })).toBe(
    'Attributions are only available for primary view, switch to default view to enable attributions',
  );
  expect(message({ loading: true })).toBe('Attributions are loading...');
  expect(message({ attributions: [] })).toBe(
    'No attributions available, learn how to upload attributions...',
  );
  // An attribution no live sample has is not offered.
  expect(message({ attributions: [overview('gone', 0)] })).toBe(
    'No attributions available, learn how to upload attributions...',
  );
  expect(attributionPicker(base)).toEqual({ kind: 'ready', options: [overview('gradcam', 4)] });
  const none = attributionPicker({ ...base, attributions: [] });
  expect(none.kind === 'message' && none.docs).toBe(true);
});

test('choosing an attribution while the heatmaps are invisible shows them at 50', () => {
  expect(chooseAttribution(0, 'image:gradcam')).toEqual({
    attribution: 'image:gradcam',
    opacity: 50,
  });
  expect(chooseAttribution(20, 'image:gradcam')).toEqual({ attribution: 'image:gradcam' });
  expect(chooseAttribution(0, null)).toEqual({ attribution: null });
});

test('only an attribution the model has at this level is drawn', () => {
  const ready = attributionPicker(base);
  expect(shownAttribution('image:gradcam', ready)).toBe('image:gradcam');
  expect(shownAttribution('image:other', ready)).toBeNull();
  expect(shownAttribution('image:gradcam', attributionPicker({ ...base, view: 'split' }))).toBe(
    null,
  );
});
