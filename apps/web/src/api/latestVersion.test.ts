import { expect, test } from 'vitest';
import { newVersionFrom } from './latestVersion';

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
