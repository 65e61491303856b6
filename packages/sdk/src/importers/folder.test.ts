// The folder readers keep the promises of docs/formats.md.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFolder } from './folder.js';
import { parseYaml } from './yaml.js';

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'loupe-folder-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('the CSV layout', () => {
  it('takes ids from an id column, types metadata columns as a whole, and keeps URLs and absolute paths', () => {
    const root = folder({
      'dataset.yaml': 'task_type: classification\nclass_names: [cat]\n',
      'train.csv':
        'id,image,label,hour,note\n' +
        'one,a.png,cat,21,\n' +
        'two,https://example.com/b.png,cat,abc,x\n' +
        'three,/srv/c.png,cat,,y\n',
    });
    const { samples, sources } = importFolder(root, 'classification');
    expect(samples.map((s) => [s.id, s.image, s.metadata])).toEqual([
      ['one', { file: join(root, 'a.png') }, { hour: '21' }],
      ['two', 'https://example.com/b.png', { hour: 'abc', note: 'x' }],
      ['three', { file: '/srv/c.png' }, { note: 'y' }],
    ]);
    expect(sources).toEqual([2, 3, 4].map((line) => `${join(root, 'train.csv')}:${line}`));
    expect(() => importFolder(root, 'regression')).toThrow(
      "task_type is 'classification', but --task is 'regression'",
    );
  });
});

describe('the COCO layout', () => {
  it('names objects <file_name>#<annotation id>, finds images/<file_name>, drops short polygons', () => {
    const root = folder({
      'annotations/instances_val.json': JSON.stringify({
        images: [{ id: 1, file_name: 'x.png' }],
        categories: [
          { id: 9, name: 'bus' },
          { id: 2, name: 'car' },
        ],
        annotations: [
          { id: 7, image_id: 1, category_id: 2, bbox: [0, 0, 2, 2], segmentation: [[0, 0, 1, 1]] },
        ],
      }),
      'images/x.png': '',
    });
    const imported = importFolder(root, 'object_detection');
    expect(imported.dataset.class_names).toEqual(['car', 'bus']);
    expect(imported.samples).toEqual([
      {
        id: 'x.png',
        split: 'val',
        image: { file: join(root, 'images/x.png') },
        objects: [{ id: '7', label: 'car', bbox: [0, 0, 2, 2] }],
      },
    ]);
  });
});

describe('dataset.yaml', () => {
  it('reads flow mappings and refuses what it does not understand, naming the line', () => {
    expect(parseYaml('label_map: {0: background, 1: road}\n', 'd.yaml')).toEqual({
      label_map: { '0': 'background', '1': 'road' },
    });
    expect(() => parseYaml('a: &anchor 1\n', 'd.yaml')).toThrow('d.yaml:1: anchors');
    expect(() => parseYaml('a: |\n  text\n', 'd.yaml')).toThrow('d.yaml:1: multi-line');
    expect(() => parseYaml('label_map:\n  0:\n    deep: 1\n', 'd.yaml')).toThrow(
      'd.yaml:2: nesting deeper than one level',
    );
  });
});
