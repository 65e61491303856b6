// pip installs the SDK from the instance's own index, offline.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from '@loupe/contracts';
import { strFromU8, unzipSync } from 'fflate';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestApp } from '../testing/test-app.js';

const sdkDir = mkdtempSync(join(tmpdir(), 'loupe-sdk-'));
mkdirSync(join(sdkDir, 'src', 'loupe'), { recursive: true });
writeFileSync(join(sdkDir, 'pyproject.toml'), '[project]\nname = "loupe"\nversion = "1.2.3"\n');
writeFileSync(join(sdkDir, 'src', 'loupe', '__init__.py'), 'GREETING = "hello from loupe"\n');
writeFileSync(join(sdkDir, 'src', 'loupe', 'cli.py'), 'def main():\n    print("cli ok")\n');

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp({ LOUPE_SDK_DIR: sdkDir });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('the Python package index', () => {
  it('lists the package and links the wheel with its sha256, without signing in', async () => {
    const anonymous = new Client(t.app);
    expect(await (await anonymous.call(api.sdk.pythonIndex)).text()).toContain(
      '<a href="loupe/">loupe</a>',
    );
    const links = await (await anonymous.call(api.sdk.pythonPackage)).text();
    const match =
      /href="\.\.\/\.\.\/files\/(loupe-1\.2\.3-py3-none-any\.whl)#sha256=([0-9a-f]{64})"/.exec(
        links,
      );
    expect(match).not.toBeNull();
    const wheel = new Uint8Array(
      await (
        await anonymous.call(api.sdk.pythonFile, { params: { filename: match![1]! } })
      ).arrayBuffer(),
    );
    expect(createHash('sha256').update(wheel).digest('hex')).toBe(match![2]);
    const files = unzipSync(wheel);
    expect(Object.keys(files).sort()).toEqual([
      'loupe-1.2.3.dist-info/METADATA',
      'loupe-1.2.3.dist-info/RECORD',
      'loupe-1.2.3.dist-info/WHEEL',
      'loupe-1.2.3.dist-info/entry_points.txt',
      'loupe-1.2.3.dist-info/top_level.txt',
      'loupe/__init__.py',
      'loupe/cli.py',
    ]);
    const record = strFromU8(files['loupe-1.2.3.dist-info/RECORD']!);
    const init = files['loupe/__init__.py']!;
    expect(record).toContain(
      `loupe/__init__.py,sha256=${createHash('sha256').update(init).digest('base64url')},${init.length}`,
    );
    await expect(
      anonymous.call(api.sdk.pythonFile, { params: { filename: 'other.whl' } }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('installs with pip from the index and imports', async () => {
    const target = mkdtempSync(join(tmpdir(), 'loupe-pip-'));
    // Asynchronously: the server answering pip runs in this same process.
    await promisify(execFile)(
      'python3',
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--no-cache-dir',
        '--disable-pip-version-check',
        '--index-url',
        `${base}/sdk/python/simple/`,
        '--target',
        target,
        'loupe',
      ],
      { timeout: 120_000 },
    );
    const out = execFileSync('python3', ['-c', 'import loupe; print(loupe.GREETING)'], {
      env: { ...process.env, PYTHONPATH: target },
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('hello from loupe');
  });
});
