// `loupe eval segmentation`: semantic segmentation metrics from two folders of PNG label maps.
import { join } from 'node:path';
import { SegmentationAccumulator } from '@loupe/metrics';
import { decode } from 'fast-png';
import { parseOptions, required, type Command } from '../command.js';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { printJson } from './output.js';

const usage = `Usage: loupe eval segmentation --gt-dir DIR --pred-dir DIR --num-classes N [--ignore 255]

  --gt-dir DIR        ground-truth label maps (*.png, one class index per pixel)
  --pred-dir DIR      predicted label maps with the same file names
  --num-classes N     classes are 0 … N-1
  --ignore V          ground-truth value to skip (default 255; "none" to count every pixel)
Label maps are single-channel PNGs (grayscale or palette, 8 or 16 bit), the pixel value being the
class. Prints per_class [{class, iou, precision, recall, f1}], mean_iou and pixel_accuracy; a class
absent from both ground truth and predictions has null values and stays out of mean_iou.
`;

/** Decodes a PNG label map to its class values, or explains what is wrong with it. */
export async function readLabelMap(
  io: CliIo,
  path: string,
): Promise<{ width: number; height: number; data: ArrayLike<number> }> {
  const bytes = await io.readFile(path);
  let png;
  try {
    png = decode(bytes);
  } catch (error) {
    throw new CliError(`${path}: not a readable PNG (${(error as Error).message})`);
  }
  if (png.channels !== 1) {
    throw new CliError(
      `${path}: a label map must have one channel (grayscale or palette), this PNG has ${png.channels}`,
    );
  }
  return { width: png.width, height: png.height, data: png.data };
}

function integerOption(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new CliError(`--${name} must be a non-negative integer, not "${value}"`);
  return n;
}

export const segmentationEval: Command = {
  name: 'segmentation',
  summary: 'semantic segmentation (IoU, precision, recall, F1 from PNG label maps)',
  usage,
  async run(args, io) {
    const { values } = parseOptions(
      args,
      {
        'gt-dir': { type: 'string' },
        'pred-dir': { type: 'string' },
        'num-classes': { type: 'string' },
        ignore: { type: 'string' },
      },
      usage,
    );
    const gtDir = required(values, 'gt-dir', usage);
    const predDir = required(values, 'pred-dir', usage);
    const numClasses = integerOption(required(values, 'num-classes', usage), 'num-classes');
    if (numClasses < 1) throw new CliError('--num-classes must be at least 1');
    const ignoreText = typeof values.ignore === 'string' ? values.ignore : '255';
    const ignore = ignoreText === 'none' ? null : integerOption(ignoreText, 'ignore');
    const gtFiles = (await io.readDir(gtDir))
      .filter((f) => f.toLowerCase().endsWith('.png'))
      .sort();
    if (gtFiles.length === 0) throw new CliError(`${gtDir}: no .png label maps`);
    const predFiles = new Set(await io.readDir(predDir));
    const accumulator = new SegmentationAccumulator(numClasses, ignore);
    for (const file of gtFiles) {
      if (!predFiles.has(file))
        throw new CliError(
          `${join(predDir, file)}: missing (no prediction for ${join(gtDir, file)})`,
        );
      const gt = await readLabelMap(io, join(gtDir, file));
      const pred = await readLabelMap(io, join(predDir, file));
      if (gt.width !== pred.width || gt.height !== pred.height) {
        throw new CliError(
          `${join(predDir, file)}: ${pred.width}×${pred.height} pixels, but the ground truth is ${gt.width}×${gt.height}`,
        );
      }
      accumulator.add(gt.data, pred.data);
    }
    const report = accumulator.report();
    return printJson(io, {
      num_images: gtFiles.length,
      num_pixels: report.numPixels,
      per_class: report.perClass.map((c) => ({
        class: c.class,
        iou: c.iou,
        precision: c.precision,
        recall: c.recall,
        f1: c.f1,
        tp: c.tp,
        fp: c.fp,
        fn: c.fn,
      })),
      mean_iou: report.meanIou,
      pixel_accuracy: report.pixelAccuracy,
    });
  },
};
