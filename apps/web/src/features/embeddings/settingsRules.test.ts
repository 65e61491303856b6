import { expect, test } from 'vitest';
import type { EmbeddingsSettings } from '@loupe/contracts';
import { checkSettings, defaultSetting, draftFrom, tsneIsSlow } from './settingsRules';

const saved: EmbeddingsSettings = {
  feature_names: ['clip', 'resnet'],
  predictions_feature_names: [],
  feature_name: 'clip',
  dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
};

test('defaults: UMAP 15 neighbours, t-SNE perplexity 30', () => {
  expect(defaultSetting('UMAP')).toEqual({ method: 'UMAP', num_neighbors: 15 });
  expect(defaultSetting('TSNE')).toEqual({ method: 'TSNE', perplexity: 30 });
  expect(defaultSetting('PCA')).toEqual({ method: 'PCA' });
  expect(draftFrom({ ...saved, dimensionality_reduction_setting: { method: 'PCA' } })).toEqual({
    featureName: 'clip',
    method: 'PCA',
    numNeighbors: 15,
    perplexity: 30,
  });
});

test('Apply is disabled while nothing changed and enabled by a change', () => {
  const draft = draftFrom(saved);
  expect(checkSettings(draft, saved).canApply).toBe(false);
  expect(checkSettings({ ...draft, featureName: 'resnet' }, saved).canApply).toBe(true);
  expect(checkSettings({ ...draft, numNeighbors: 16 }, saved).canApply).toBe(true);
  const pca = checkSettings({ ...draft, method: 'PCA' }, saved);
  expect(pca).toMatchObject({ canApply: true, setting: { method: 'PCA' } });
});

test('Apply is disabled without a feature or a method', () => {
  const draft = draftFrom(saved);
  expect(checkSettings({ ...draft, featureName: null, method: 'PCA' }, saved).canApply).toBe(false);
  expect(checkSettings({ ...draft, method: null }, saved).canApply).toBe(false);
});

test('a feature that is not available says so and disables Apply', () => {
  const gone = { ...saved, feature_name: 'deleted' };
  const check = checkSettings(draftFrom(gone), gone);
  expect(check.canApply).toBe(false);
  expect(check.featureMessage).toBe(
    'Selected feature is not available. Please select another feature from the dropdown menu',
  );
  expect(checkSettings({ ...draftFrom(gone), featureName: 'clip' }, gone).canApply).toBe(true);
});

test('without features the dialog asks for one', () => {
  const none = { ...saved, feature_names: [], feature_name: null };
  expect(checkSettings(draftFrom(none), none)).toMatchObject({
    canApply: false,
    featureMessage: 'You need to upload at least one feature to enable embeddings settings',
  });
});

test('UMAP neighbours are whole numbers from 2 to 100', () => {
  const draft = { ...draftFrom(saved), method: 'UMAP' as const };
  for (const [value, ok] of [
    [1, false],
    [2, true],
    [100, true],
    [101, false],
    [15.5, false],
    [null, false],
  ] as const)
    expect(checkSettings({ ...draft, numNeighbors: value }, saved).setting !== null).toBe(ok);
});

test('t-SNE perplexity from 0.1 to 100; a tenth-step change counts, float noise does not', () => {
  const tsne: EmbeddingsSettings = {
    ...saved,
    dimensionality_reduction_setting: { method: 'TSNE', perplexity: 30 },
  };
  const draft = draftFrom(tsne);
  expect(checkSettings({ ...draft, perplexity: 0.05 }, tsne).canApply).toBe(false);
  expect(checkSettings({ ...draft, perplexity: 0.1 }, tsne).canApply).toBe(true);
  expect(checkSettings({ ...draft, perplexity: 100.1 }, tsne).canApply).toBe(false);
  expect(checkSettings({ ...draft, perplexity: 30.1 }, tsne).canApply).toBe(true);
  expect(checkSettings({ ...draft, perplexity: 30.000001 }, tsne).canApply).toBe(false);
});

test('t-SNE warns above 20,000 points only', () => {
  expect(tsneIsSlow('TSNE', 20_000)).toBe(false);
  expect(tsneIsSlow('TSNE', 20_001)).toBe(true);
  expect(tsneIsSlow('UMAP', 1_000_000)).toBe(false);
});
