// `loupe eval coco`: COCO evaluation of a results file against a ground-truth file, as pycocotools.
import {
  COCO_STAT_NAMES,
  CocoInputError,
  evaluateCoco,
  type CocoDataset,
  type CocoDetection,
} from '@loupe/metrics';
import { parseOptions, required, type Command } from '../command.js';
import { CliError } from '../errors.js';
import { readText, type CliIo } from '../io.js';
import { printJson } from './output.js';

const usage = `Usage: loupe eval coco --gt GT.json --dt DT.json --iou-type bbox|segm

COCO evaluation with pycocotools' COCOeval conventions (IoU .50:.05:.95, 101 recall points,
maxDets 1/10/100, areas all/small/medium/large, crowd regions).
  --gt FILE         COCO ground truth (images, annotations, categories)
  --dt FILE         COCO results: a list of {image_id, category_id, score, bbox | segmentation}
  --iou-type TYPE   bbox or segm
Prints {"iou_type", "stats": [12 numbers in COCOeval.summarize() order], "stat_names",
"per_category": [{category_id, name, ap, ap50, ap75, ar100}]}; -1 means undefined, as pycocotools.
`;

async function readJson(io: CliIo, path: string): Promise<unknown> {
  const text = await readText(io, path);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path}: not valid JSON (${(error as Error).message})`);
  }
}

const isId = (v: unknown): boolean => typeof v === 'number' || typeof v === 'string';

function checkGroundTruth(value: unknown, file: string, iouType: string): CocoDataset {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(`${file}: expected a COCO object with "images" and "annotations"`);
  }
  const gt = value as Record<string, unknown>;
  for (const key of ['images', 'annotations']) {
    if (!Array.isArray(gt[key])) throw new CliError(`${file}: "${key}" must be a list`);
  }
  (gt.images as unknown[]).forEach((image, i) => {
    const im = image as Record<string, unknown>;
    if (typeof im !== 'object' || im === null || !isId(im.id)) {
      throw new CliError(`${file}: images[${i}]: "id" is missing`);
    }
    if (iouType === 'segm') {
      for (const key of ['height', 'width']) {
        if (typeof im[key] !== 'number' || !(im[key] > 0)) {
          throw new CliError(
            `${file}: images[${i}] (id ${String(im.id)}): "${key}" must be a positive number`,
          );
        }
      }
    }
  });
  (gt.annotations as unknown[]).forEach((ann, i) => {
    const a = ann as Record<string, unknown>;
    if (typeof a !== 'object' || a === null)
      throw new CliError(`${file}: annotations[${i}] is not an object`);
    for (const key of ['id', 'image_id', 'category_id']) {
      if (!isId(a[key])) throw new CliError(`${file}: annotations[${i}]: "${key}" is missing`);
    }
  });
  if (gt.categories !== undefined && !Array.isArray(gt.categories)) {
    throw new CliError(`${file}: "categories" must be a list`);
  }
  return gt as unknown as CocoDataset;
}

function checkResults(value: unknown, file: string): CocoDetection[] {
  if (!Array.isArray(value)) throw new CliError(`${file}: expected a list of detections`);
  value.forEach((det, i) => {
    const d = det as Record<string, unknown>;
    if (typeof d !== 'object' || d === null)
      throw new CliError(`${file}: detection ${i} is not an object`);
    for (const key of ['image_id', 'category_id']) {
      if (!isId(d[key])) throw new CliError(`${file}: detection ${i}: "${key}" is missing`);
    }
  });
  return value as CocoDetection[];
}

export const cocoEval: Command = {
  name: 'coco',
  summary: 'object detection / instance segmentation (COCO mAP, as pycocotools)',
  usage,
  async run(args, io) {
    const { values } = parseOptions(
      args,
      { gt: { type: 'string' }, dt: { type: 'string' }, 'iou-type': { type: 'string' } },
      usage,
    );
    const gtPath = required(values, 'gt', usage);
    const dtPath = required(values, 'dt', usage);
    const iouType = required(values, 'iou-type', usage);
    if (iouType !== 'bbox' && iouType !== 'segm') {
      throw new CliError(`--iou-type must be bbox or segm, not "${iouType}"`);
    }
    const gt = checkGroundTruth(await readJson(io, gtPath), gtPath, iouType);
    const dt = checkResults(await readJson(io, dtPath), dtPath);
    let result;
    try {
      result = evaluateCoco(gt, dt, iouType);
    } catch (error) {
      if (!(error instanceof CocoInputError)) throw error;
      // The message names the entry; say which file it is in.
      const file = error.message.startsWith('ground truth') ? gtPath : dtPath;
      throw new CliError(`${file}: ${error.message}`);
    }
    const names = new Map((gt.categories ?? []).map((c) => [c.id, c.name]));
    return printJson(io, {
      iou_type: iouType,
      stats: result.stats,
      stat_names: COCO_STAT_NAMES,
      per_category: result.perCategory.map((c) => ({
        category_id: c.categoryId,
        name: names.get(c.categoryId) ?? null,
        ap: c.ap,
        ap50: c.ap50,
        ap75: c.ap75,
        ar100: c.ar100,
      })),
    });
  },
};
