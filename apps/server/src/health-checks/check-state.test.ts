import { mkdtempSync, readdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckStateFiles, datasetStateDir, forgetCheckState } from './check-state.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));
function root(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-check-state-'));
  roots.push(dir);
  return dir;
}

const RECORD = {
  ids: ['a', 'b', 'é ☃', ''],
  digests: Uint32Array.from([1, 2 ** 32 - 1, 7]),
  alive: Uint8Array.from([1, 0, 1]),
  mean: Float64Array.from([0.5, -1e-300, Number.NaN]),
  cosine: Float32Array.from([0.25, 3]),
  members: Int32Array.from([-1, 5, 9, 11, 13]),
  built: 3,
  settings: '[64,{"threshold":0.01}]',
  empty: new Float32Array(0),
};

describe('CheckStateFiles', () => {
  it('reads back what it wrote, each kind of value', () => {
    const files = new CheckStateFiles(datasetStateDir(root(), 'dataset-1'), (m) => {
      throw new Error(m);
    });
    expect(files.read('near-duplicates-00')).toBeNull();
    files.write('near-duplicates-00', RECORD);
    expect(files.read('near-duplicates-00')).toEqual(RECORD);
  });

  it('ignores and removes a damaged file, and removes on write(null) and forget', async () => {
    const dir = root();
    const folder = datasetStateDir(dir, 'dataset-1');
    const warnings: string[] = [];
    const files = new CheckStateFiles(folder, (message) => warnings.push(message));
    files.write('k', RECORD);
    truncateSync(join(folder, 'k.state'), 200);
    expect(files.read('k')).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(readdirSync(folder)).toEqual([]);
    files.write('k', RECORD);
    files.write('k', null);
    expect(readdirSync(folder)).toEqual([]);
    files.write('k', RECORD);
    await forgetCheckState(dir, 'dataset-1');
    expect(readdirSync(dir)).toEqual([]);
  });

  it("removes a key's partly written files left by a dead process, not a live writer's", () => {
    const dir = datasetStateDir(root(), 'dataset-3');
    const files = new CheckStateFiles(dir);
    files.write('votes', RECORD);
    const stale = join(dir, 'votes.state.0b5e.partial');
    const fresh = join(dir, 'votes.state.7c1f.partial');
    const other = join(dir, 'outliers.state.9a2d.partial');
    for (const path of [stale, fresh, other]) writeFileSync(path, 'half');
    const twoHoursAgo = (Date.now() - 2 * 60 * 60 * 1000) / 1000;
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    utimesSync(other, twoHoursAgo, twoHoursAgo);
    files.write('votes', RECORD);
    // The other key's stale file goes with that key's next write.
    expect(readdirSync(dir).sort()).toEqual(
      ['outliers.state.9a2d.partial', 'votes.state', 'votes.state.7c1f.partial'].sort(),
    );
    files.write('outliers', RECORD);
    expect(readdirSync(dir).sort()).toEqual(
      ['outliers.state', 'votes.state', 'votes.state.7c1f.partial'].sort(),
    );
  });

  it('refuses keys and dataset ids that are not plain names', () => {
    expect(() => datasetStateDir(root(), '../x')).toThrow();
    const files = new CheckStateFiles(root());
    expect(() => files.read('../../etc')).toThrow();
  });
});
