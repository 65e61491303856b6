import { expect, test } from 'vitest';
import { selectionFromPath, switchTarget } from './navModel';

test('the chosen dataset and model come from the route', () => {
  expect(selectionFromPath('/datasets/d1/explore')).toEqual({ datasetId: 'd1' });
  expect(selectionFromPath('/models/datasets/d1/predictions/p2/performance')).toEqual({
    datasetId: 'd1',
    predictionSetId: 'p2',
  });
  expect(selectionFromPath('/settings/users')).toEqual({});
});

test('switching keeps the sub-page; performance and compare fall back to the dataset overview', () => {
  expect(switchTarget('/datasets/d1/metadata', { datasetId: 'd2' })).toBe('/datasets/d2/metadata');
  expect(switchTarget('/datasets/d1/checks/c9', { datasetId: 'd1', predictionSetId: 'p1' })).toBe(
    '/models/datasets/d1/predictions/p1/checks',
  );
  expect(switchTarget('/models/datasets/d1/predictions/p1/performance', { datasetId: 'd1' })).toBe(
    '/datasets/d1/overview',
  );
  expect(switchTarget('/models/datasets/d1/predictions/p1/compare/p2', { datasetId: 'd1' })).toBe(
    '/datasets/d1/overview',
  );
});
