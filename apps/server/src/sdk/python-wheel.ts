// Builds the Python SDK wheel from sdk/python/src/loupe/*.py, so `pip install --index-url
// http://HOST:8080/sdk/python/simple/ loupe` works with no internet (a PEP 503 "simple" index).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';

export interface Wheel {
  filename: string;
  version: string;
  bytes: Buffer;
  sha256: string;
}

const recordHash = (data: Uint8Array) =>
  `sha256=${createHash('sha256').update(data).digest('base64url')}`;

/** Reads the package version from pyproject.toml (`version = "x.y.z"`). */
export function pyprojectVersion(text: string): string {
  const match = /^version\s*=\s*"([^"]+)"/m.exec(text);
  if (!match) throw new Error('sdk/python/pyproject.toml has no version = "…" line');
  return match[1]!;
}

export async function buildWheel(sdkDir: string): Promise<Wheel> {
  const version = pyprojectVersion(await fs.readFile(join(sdkDir, 'pyproject.toml'), 'utf8'));
  const packageDir = join(sdkDir, 'src', 'loupe');
  const sources = (await fs.readdir(packageDir)).filter((name) => name.endsWith('.py')).sort();
  if (!sources.includes('__init__.py')) throw new Error(`${packageDir} has no __init__.py`);
  const distInfo = `loupe-${version}.dist-info`;
  const files: Record<string, Uint8Array> = {};
  for (const name of sources)
    files[`loupe/${name}`] = new Uint8Array(await fs.readFile(join(packageDir, name)));
  files[`${distInfo}/METADATA`] = strToU8(
    [
      'Metadata-Version: 2.1',
      'Name: loupe',
      `Version: ${version}`,
      'Summary: Python client for Loupe: upload datasets, predictions and features',
      'Requires-Python: >=3.9',
      '',
    ].join('\n'),
  );
  files[`${distInfo}/WHEEL`] = strToU8(
    'Wheel-Version: 1.0\nGenerator: loupe-server\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  );
  files[`${distInfo}/entry_points.txt`] = strToU8('[console_scripts]\nloupe = loupe.cli:main\n');
  files[`${distInfo}/top_level.txt`] = strToU8('loupe\n');
  const record = Object.entries(files).map(
    ([path, data]) => `${path},${recordHash(data)},${data.length}`,
  );
  record.push(`${distInfo}/RECORD,,`);
  files[`${distInfo}/RECORD`] = strToU8(`${record.join('\n')}\n`);
  // Fixed timestamps keep the wheel byte-identical for identical sources.
  const bytes = Buffer.from(zipSync(files, { mtime: new Date('2026-01-01T00:00:00Z') }));
  return {
    filename: `loupe-${version}-py3-none-any.whl`,
    version,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** Rebuilds the wheel when a source file changed; answers the cached one otherwise. */
export class WheelCache {
  private cached?: { stamp: string; wheel: Wheel };

  constructor(private readonly sdkDir: string) {}

  async wheel(): Promise<Wheel | undefined> {
    const packageDir = join(this.sdkDir, 'src', 'loupe');
    let stamp: string;
    try {
      const names = (await fs.readdir(packageDir)).filter((name) => name.endsWith('.py'));
      const stats = await Promise.all(
        [...names.map((n) => join(packageDir, n)), join(this.sdkDir, 'pyproject.toml')].map((p) =>
          fs.stat(p),
        ),
      );
      stamp = `${names.join(',')}|${stats.map((s) => s.mtimeMs).join(',')}`;
    } catch {
      return undefined;
    }
    if (this.cached?.stamp !== stamp) this.cached = { stamp, wheel: await buildWheel(this.sdkDir) };
    return this.cached.wheel;
  }
}
