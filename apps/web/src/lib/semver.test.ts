import { expect, test } from 'vitest';
import { isNewerVersion, parseSemVer } from './semver';

test('only semantic versions are compared', () => {
  expect(isNewerVersion('1.5.0', '1.4.9')).toBe(true);
  expect(isNewerVersion('1.10.0', '1.9.0')).toBe(true);
  expect(isNewerVersion('2.0.0', '2.0.0-rc.1')).toBe(true);
  expect(isNewerVersion('2.0.0-rc.2', '2.0.0-rc.10')).toBe(false);
  expect(isNewerVersion('1.4.0', '1.4.0')).toBe(false);
  expect(isNewerVersion('1.3.0', '1.4.0')).toBe(false);
  expect(isNewerVersion('latest', '1.4.0')).toBe(false);
  expect(isNewerVersion('1.5', '1.4.0')).toBe(false);
  expect(isNewerVersion('1.5.0', 'dev')).toBe(false);
  expect(parseSemVer('v1.2.3+build.7')).toMatchObject({ major: 1, minor: 2, patch: 3 });
});
