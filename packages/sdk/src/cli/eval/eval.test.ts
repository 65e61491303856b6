// `loupe eval` end to end through runCli with in-memory files: the reference answers of
// pycocotools and scikit-learn, and the error messages (file, line, field; exit code 2).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../io.js';
import { runCli } from '../main.js';

const fixtures = fileURLToPath(new URL('../../../../metrics/test-fixtures/', import.meta.url));

function memoryIo(files: Record<string, string | Uint8Array>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    async readFile(path) {
      const content = files[path];
      if (content === undefined) throw new Error(`test: no file ${path}`);
      return typeof content === 'string' ? new TextEncoder().encode(content) : content;
    },
    async readDir(path) {
      return Object.keys(files)
        .filter((f) => f.startsWith(`${path}/`))
        .map((f) => f.slice(path.length + 1));
    },
  };
  return { io, out, err };
}

async function run(args: string[], files: Record<string, string | Uint8Array>) {
  const { io, out, err } = memoryIo(files);
  const code = await runCli(args, io);
  const stdout = out.join('');
  return {
    code,
    json: stdout.startsWith('{') ? JSON.parse(stdout) : null,
    stdout,
    stderr: err.join(''),
  };
}

describe('loupe eval coco', () => {
  const cases = JSON.parse(readFileSync(join(fixtures, 'coco-cases.json'), 'utf8')) as {
    iou_type: string;
    gt: unknown;
    dt: unknown;
    expected: { stats: number[]; per_category: { ap: number; ar100: number }[] };
  }[];
  for (const c of cases.filter((_, i) => i === 0 || i === 2)) {
    it(`prints pycocotools' stats for ${c.iou_type}`, async () => {
      const { code, json } = await run(
        ['eval', 'coco', '--gt', 'gt.json', '--dt', 'dt.json', '--iou-type', c.iou_type],
        { 'gt.json': JSON.stringify(c.gt), 'dt.json': JSON.stringify(c.dt) },
      );
      expect(code).toBe(0);
      json.stats.forEach((s: number, i: number) => expect(s).toBeCloseTo(c.expected.stats[i]!, 12));
      json.per_category.forEach((p: { ap: number; ar100: number }, k: number) => {
        expect(p.ap).toBeCloseTo(c.expected.per_category[k]!.ap, 12);
        expect(p.ar100).toBeCloseTo(c.expected.per_category[k]!.ar100, 12);
      });
      expect(Object.keys(json.per_category[0])).toEqual([
        'category_id',
        'name',
        'ap',
        'ap50',
        'ap75',
        'ar100',
      ]);
    });
  }

  it('names the file and entry of bad input, exit code 2', async () => {
    const gt = JSON.stringify({ images: [{ id: 1, width: 10, height: 10 }], annotations: [] });
    const bad = await run(
      ['eval', 'coco', '--gt', 'gt.json', '--dt', 'dt.json', '--iou-type', 'bbox'],
      {
        'gt.json': gt,
        'dt.json': JSON.stringify([{ image_id: 2, category_id: 1, bbox: [0, 0, 1, 1], score: 1 }]),
      },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /dt\.json: detection 0: image_id 2 is not an image of the ground truth/,
    );
    const notJson = await run(
      ['eval', 'coco', '--gt', 'gt.json', '--dt', 'dt.json', '--iou-type', 'bbox'],
      {
        'gt.json': gt,
        'dt.json': '[{',
      },
    );
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/dt\.json: not valid JSON/);
    const badMask = await run(
      ['eval', 'coco', '--gt', 'gt.json', '--dt', 'dt.json', '--iou-type', 'segm'],
      {
        'gt.json': JSON.stringify({
          images: [{ id: 1, width: 10, height: 10 }],
          annotations: [
            { id: 1, image_id: 1, category_id: 1, segmentation: [[0, 0, 'x', 1, 2, 2]] },
          ],
        }),
        'dt.json': '[]',
      },
    );
    expect(badMask.code).toBe(2);
    expect(badMask.stderr).toContain(
      'gt.json: ground truth annotation 0 (id 1): invalid "segmentation" (polygon 0 must be a list of numbers)',
    );
    const badType = await run(
      ['eval', 'coco', '--gt', 'a', '--dt', 'b', '--iou-type', 'keypoints'],
      {},
    );
    expect(badType.stderr).toMatch(/--iou-type must be bbox or segm/);
  });
});

describe('loupe eval classification', () => {
  const { classification } = JSON.parse(
    readFileSync(join(fixtures, 'sklearn-cases.json'), 'utf8'),
  ) as {
    classification: {
      k: number;
      y_true: number[];
      y_pred: number[];
      scores: number[][];
      macro: { f1: number; precision: number };
      weighted: { recall: number };
      roc_auc?: number;
      log_loss?: number;
      roc_fpr?: number[];
      roc_tpr?: number[];
      roc_auc_ovr_macro?: number;
    }[];
  };

  function csvFiles(c: (typeof classification)[number]) {
    const names = Array.from({ length: c.k }, (_, k) => `class ${k}`);
    const labels = ['id,label', ...c.y_true.map((y, i) => `item${i},${names[y]}`)].join('\n');
    const predictions = [
      `id,label,score,${names.join(',')}`,
      // Rows in a different order than the labels: matching is by id.
      ...c.y_pred
        .map((y, i) => `item${i},${names[y]},${c.scores[i]![y]},${c.scores[i]!.join(',')}`)
        .reverse(),
    ].join('\r\n');
    return { 'L.csv': labels, 'P.csv': predictions };
  }

  it("prints scikit-learn's numbers for a multi-class case", async () => {
    const c = classification.find((x) => x.k === 5)!;
    const { code, json } = await run(
      ['eval', 'classification', '--labels', 'L.csv', '--predictions', 'P.csv'],
      csvFiles(c),
    );
    expect(code).toBe(0);
    expect(json.f1_macro).toBeCloseTo(c.macro.f1, 12);
    expect(json.precision_macro).toBeCloseTo(c.macro.precision, 12);
    expect(json.recall_weighted).toBeCloseTo(c.weighted.recall, 12);
    expect(json.roc_auc_ovr_macro).toBeCloseTo(c.roc_auc_ovr_macro!, 12);
    expect(json.confusion_matrix).toHaveLength(5);
    expect(Object.keys(json.per_class['class 0'])).toEqual(
      expect.arrayContaining([
        'precision',
        'recall',
        'f1',
        'support',
        'tp',
        'fp',
        'fn',
        'tn',
        'specificity',
        'roc_auc_ovr',
      ]),
    );
  });

  it('adds roc_auc, eer and binary_cross_entropy with --positive', async () => {
    const c = classification.find((x) => x.k === 2 && x.roc_auc! < 0.99)!;
    const { code, json } = await run(
      [
        'eval',
        'classification',
        '--labels',
        'L.csv',
        '--predictions',
        'P.csv',
        '--positive',
        'class 1',
      ],
      csvFiles(c),
    );
    expect(code).toBe(0);
    expect(json.roc_auc).toBeCloseTo(c.roc_auc!, 12);
    expect(json.binary_cross_entropy).toBeCloseTo(c.log_loss!, 12);
    // EER on scikit-learn's ROC curve: where FNR = 1 − TPR meets FPR, linearly interpolated.
    const fpr = c.roc_fpr!;
    const fnr = c.roc_tpr!.map((t) => 1 - t);
    const i = fnr.findIndex((f, j) => f <= fpr[j]!);
    const d0 = fnr[i - 1]! - fpr[i - 1]!;
    const d1 = fnr[i]! - fpr[i]!;
    const expected = fpr[i - 1]! + (d0 / (d0 - d1)) * (fpr[i]! - fpr[i - 1]!);
    expect(json.eer).toBeCloseTo(expected, 12);
  });

  it('names file, line and field for bad rows', async () => {
    const files = {
      'L.csv': 'id,label\na,cat\nb,bird\n',
      'P.csv': 'id,label,score,cat,dog\na,cat,0.9,0.9,0.1\nb,dog,0.8,0.2,0.8\n',
    };
    const bad = await run(
      ['eval', 'classification', '--labels', 'L.csv', '--predictions', 'P.csv'],
      files,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'L.csv line 3, column "label": "bird" is not a class (classes: cat, dog)',
    );
    const notNumber = await run(
      ['eval', 'classification', '--labels', 'L.csv', '--predictions', 'P.csv'],
      {
        'L.csv': 'id,label\na,cat\n',
        'P.csv': 'id,label,score,cat,dog\na,cat,0.9,high,0.1\n',
      },
    );
    expect(notNumber.stderr).toContain('P.csv line 2, column "cat": "high" is not a number');
    const missing = await run(
      ['eval', 'classification', '--labels', 'L.csv', '--predictions', 'P.csv'],
      {
        'L.csv': 'id,label\na,cat\nz,cat\n',
        'P.csv': 'id,label\na,cat\n',
      },
    );
    expect(missing.stderr).toContain('P.csv: no prediction for id "z" (L.csv line 3)');
    const ragged = await run(
      ['eval', 'classification', '--labels', 'L.csv', '--predictions', 'P.csv'],
      {
        'L.csv': 'id,label\na,cat,extra\n',
        'P.csv': 'id,label\na,cat\n',
      },
    );
    expect(ragged.stderr).toContain('L.csv line 2: 3 fields, but the header has 2');
    const noOption = await run(['eval', 'classification', '--labels', 'L.csv'], {});
    expect(noOption.code).toBe(2);
    expect(noOption.stderr).toContain('missing option --predictions');
  });
});

describe('loupe eval regression', () => {
  it('prints MSE and MAE per value and overall', async () => {
    const { code, json } = await run(
      ['eval', 'regression', '--labels', 'L.csv', '--predictions', 'P.csv'],
      {
        'L.csv': 'id,age,height\na,10,1.5\nb,20,1.7\n',
        'P.csv': 'id,height,age\nb,1.7,24\na,1.4,10\n',
      },
    );
    expect(code).toBe(0);
    expect(json.per_value.age).toEqual({ mse: 8, mae: 2, count: 2 });
    expect(json.per_value.height.mae).toBeCloseTo(0.05, 12);
    expect(json.mse).toBeCloseTo((8 + 0.005) / 2, 12);
  });

  it('rejects a missing value column', async () => {
    const r = await run(['eval', 'regression', '--labels', 'L.csv', '--predictions', 'P.csv'], {
      'L.csv': 'id,age\na,1\n',
      'P.csv': 'id,weight\na,1\n',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('P.csv: missing column "age"');
  });
});

describe('loupe eval wer', () => {
  const files = {
    'R.csv': 'id,transcript\nu1,"Hello, world"\nu2,the cat sat\nu3,""\n',
    'H.csv': 'id,transcript\nu2,the cat sat down\nu1,hello world\nu3,\n',
  };

  it('prints corpus and per-utterance measures, jiwer-style normalisation by default', async () => {
    const { code, json } = await run(
      ['eval', 'wer', '--references', 'R.csv', '--hypotheses', 'H.csv'],
      files,
    );
    expect(code).toBe(0);
    // u1: "Hello," vs "hello" and "world" vs "world": 1 S; u2: 1 I; u3: empty both.
    expect([json.hits, json.substitutions, json.deletions, json.insertions]).toEqual([4, 1, 0, 1]);
    expect(json.wer).toBe(2 / 5);
    expect(json.per_utterance.map((u: { id: string; wer: number }) => [u.id, u.wer])).toEqual([
      ['u1', 0.5],
      ['u2', 1 / 3],
      ['u3', 0],
    ]);
  });

  it('lower-cases and removes punctuation on request, with the alignment', async () => {
    const { json } = await run(
      [
        'eval',
        'wer',
        '--references',
        'R.csv',
        '--hypotheses',
        'H.csv',
        '--lowercase',
        '--remove-punctuation',
        '--alignment',
      ],
      files,
    );
    expect(json.substitutions).toBe(0);
    expect(json.per_utterance[1].alignment.map((a: { type: string }) => a.type)).toEqual([
      '-',
      '-',
      '-',
      'I',
    ]);
  });
});

describe('loupe eval segmentation', () => {
  const png = (width: number, height: number, values: number[]) =>
    encode({ width, height, data: Uint8Array.from(values), channels: 1, depth: 8 });

  it('reads PNG label maps with matching names', async () => {
    const { code, json } = await run(
      ['eval', 'segmentation', '--gt-dir', 'gt', '--pred-dir', 'pred', '--num-classes', '2'],
      {
        'gt/a.png': png(2, 2, [0, 1, 1, 255]),
        'pred/a.png': png(2, 2, [0, 1, 0, 1]),
        'gt/b.png': png(1, 1, [1]),
        'pred/b.png': png(1, 1, [1]),
      },
    );
    expect(code).toBe(0);
    expect(json.per_class[0]).toMatchObject({ class: 0, iou: 0.5, precision: 0.5, recall: 1 });
    expect(json.per_class[1]).toMatchObject({ class: 1, iou: 2 / 3, precision: 1 });
    expect(json.mean_iou).toBeCloseTo((0.5 + 2 / 3) / 2, 15);
    expect(json.pixel_accuracy).toBe(3 / 4);
  });

  it('explains missing predictions, size mismatches and RGB images', async () => {
    const args = [
      'eval',
      'segmentation',
      '--gt-dir',
      'gt',
      '--pred-dir',
      'pred',
      '--num-classes',
      '2',
    ];
    const missing = await run(args, { 'gt/a.png': png(1, 1, [0]) });
    expect(missing.stderr).toContain('pred/a.png: missing');
    const size = await run(args, { 'gt/a.png': png(1, 1, [0]), 'pred/a.png': png(2, 1, [0, 0]) });
    expect(size.stderr).toContain('pred/a.png: 2×1 pixels, but the ground truth is 1×1');
    const rgb = encode({
      width: 1,
      height: 1,
      data: Uint8Array.from([1, 2, 3]),
      channels: 3,
      depth: 8,
    });
    const color = await run(args, { 'gt/a.png': rgb, 'pred/a.png': rgb });
    expect(color.code).toBe(2);
    expect(color.stderr).toContain('gt/a.png: a label map must have one channel');
  });
});

describe('loupe command line', () => {
  it('lists commands, rejects unknown ones with exit code 2', async () => {
    const help = await run(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('eval');
    const unknown = await run(['frobnicate'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const unknownTask = await run(['eval', 'bleu'], {});
    expect(unknownTask.stderr).toContain('unknown command "bleu"');
  });

  it('runs from the bin script without a build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-cli-'));
    writeFileSync(join(dir, 'R.csv'), 'id,transcript\n1,a b c\n');
    writeFileSync(join(dir, 'H.csv'), 'id,transcript\n1,a x c\n');
    const bin = fileURLToPath(new URL('../../../bin/loupe.js', import.meta.url));
    const stdout = execFileSync(
      process.execPath,
      [bin, 'eval', 'wer', '--references', join(dir, 'R.csv'), '--hypotheses', join(dir, 'H.csv')],
      {
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(stdout).wer).toBe(1 / 3);
  });
});
