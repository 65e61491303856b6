import { expect, test } from 'vitest';
import { newVersionFrom } from './latestVersion';
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

test('the versions file gives an entry only for a newer semantic version', () => {
  const url = 'https://releases.loupe.test/versions.json';
  expect(newVersionFrom({ latest: { version: '1.5.0', slug: 'v1-5-0' } }, '1.4.0', url)).toEqual({
    version: '1.5.0',
    changelogUrl: 'https://releases.loupe.test/changelog/v1-5-0',
    upgradeUrl: 'https://releases.loupe.test/docs/upgrade',
  });
  expect(newVersionFrom({ latest: { version: '1.4.0', slug: 'x' } }, '1.4.0', url)).toBeNull();
  expect(newVersionFrom({ latest: { version: 'next' } }, '1.4.0', url)).toBeNull();
  expect(newVersionFrom({ nothing: true }, '1.4.0', url)).toBeNull();
  expect(newVersionFrom(null, '1.4.0', url)).toBeNull();
});
