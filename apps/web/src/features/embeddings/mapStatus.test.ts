import { expect, test } from 'vitest';
import { ApiError } from '../../api/ApiError';
import { mapStatus, type MapStatusInput } from './mapStatus';

const drawn: MapStatusInput = {
  settingsPending: false,
  settingsFailed: false,
  hasFeatures: true,
  featureName: 'clip',
  pointsPending: false,
  pointsFailed: false,
  pointsError: null,
  pointsStatus: 'ready',
  contextLost: false,
  hasPoints: true,
};

test('the map shows once settings and points are in', () => {
  expect(mapStatus(drawn)).toBe('map');
  expect(mapStatus({ ...drawn, hasPoints: false })).toBe('none');
});

test('loading waits for the settings, and for points only when a feature is chosen', () => {
  expect(mapStatus({ ...drawn, settingsPending: true })).toBe('loading');
  expect(mapStatus({ ...drawn, pointsPending: true, pointsStatus: undefined })).toBe('loading');
  expect(
    mapStatus({ ...drawn, pointsPending: true, pointsStatus: undefined, hasFeatures: false }),
  ).toBe('noFeatures');
});

test('a failed computation (its status, no feature, a 424) is not a failure to load', () => {
  expect(mapStatus({ ...drawn, pointsStatus: 'failed' })).toBe('computeFailed');
  expect(mapStatus({ ...drawn, featureName: null, pointsStatus: undefined })).toBe('computeFailed');
  const dependency = new ApiError(424, 'Reduction failed', false, '/points');
  expect(
    mapStatus({ ...drawn, pointsFailed: true, pointsError: dependency, pointsStatus: undefined }),
  ).toBe('computeFailed');
  const server = new ApiError(500, 'Boom', true, '/points');
  expect(
    mapStatus({ ...drawn, pointsFailed: true, pointsError: server, pointsStatus: undefined }),
  ).toBe('pointsFailed');
  expect(mapStatus({ ...drawn, settingsFailed: true })).toBe('settingsFailed');
});

test('computing shows progress; a lost WebGL context replaces the map', () => {
  expect(mapStatus({ ...drawn, pointsStatus: 'computing', hasPoints: false })).toBe('computing');
  expect(mapStatus({ ...drawn, contextLost: true })).toBe('webglLost');
});
