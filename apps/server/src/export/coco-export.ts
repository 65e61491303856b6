// The COCO layout of an export (docs/formats.md, "Exporting"): annotations/instances_<split>.json
// per split, images/<split>/<file_name>, and with a prediction set its COCO results file. What
// `loupe import coco` reads back: the same samples, splits, classes, objects and object ids.
import { rleArea, rleFromJson, type CocoRle } from '@loupe/metrics';
import type { Segmentation } from '../samples/samples.repository.js';
import {
  DEFAULT_SPLIT,
  MissingMedia,
  SplitFileNames,
  joined,
  objectSuffix,
  readAhead,
  safePart,
  sampleFileName,
  type ExportJob,
} from './export-job.js';
import type { TextSpool } from './text-spool.js';
import type { ZipWriter } from './zip-stream.js';

/** COCO category ids: the dataset's classes in order from 1, then labels found on the way. */
class Categories {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  constructor(classNames: string[]) {
    for (const name of classNames) this.id(name);
  }

  id(label: string): number {
    let id = this.ids.get(label);
    if (id === undefined) {
      this.names.push(label);
      id = this.names.length;
      this.ids.set(label, id);
    }
    return id;
  }

  json(): string {
    return JSON.stringify(this.names.map((name, i) => ({ id: i + 1, name })));
  }
}

interface SplitFile {
  token: string;
  images: TextSpool;
  annotations: TextSpool;
  imageCount: number;
  annotationCount: number;
  /** Annotation ids given in this file: COCO wants them unique per file. */
  used: Set<number>;
  fresh: number;
}

/**
 * The annotation id of an object: the number after `<sample id>#` when it is one and still free
 * (so `loupe import coco` gives the object its id again), else the next free number.
 */
function annotationId(file: SplitFile, sampleId: string, objectId: string): number {
  const suffix = objectSuffix(sampleId, objectId);
  if (/^(0|[1-9]\d{0,14})$/.test(suffix)) {
    const n = Number(suffix);
    if (!file.used.has(n)) {
      file.used.add(n);
      return n;
    }
  }
  while (file.used.has(file.fresh)) file.fresh++;
  file.used.add(file.fresh);
  return file.fresh;
}

function polygonArea(polygons: number[][]): number {
  let area = 0;
  for (const polygon of polygons) {
    let twice = 0;
    const n = polygon.length - (polygon.length % 2);
    for (let i = 0; i < n; i += 2) {
      const j = (i + 2) % n;
      twice += polygon[i]! * polygon[j + 1]! - polygon[j]! * polygon[i + 1]!;
    }
    area += Math.abs(twice) / 2;
  }
  return area;
}

/** The polygons' area, the RLE's pixel count, or the box's area. */
export function objectArea(
  segmentation: Segmentation | null,
  w: number | null,
  h: number | null,
): number {
  if (Array.isArray(segmentation)) return polygonArea(segmentation);
  if (segmentation) {
    try {
      return rleArea(rleFromJson(segmentation as CocoRle));
    } catch {
      // An RLE the metrics cannot read: the box's area says something still.
    }
  }
  return (w ?? 0) * (h ?? 0);
}

function bboxOf(o: { x: number | null; y: number | null; w: number | null; h: number | null }) {
  return o.x === null || o.y === null || o.w === null || o.h === null
    ? undefined
    : [o.x, o.y, o.w, o.h];
}

export async function writeCoco(zip: ZipWriter, job: ExportJob): Promise<void> {
  const categories = new Categories(job.dataset.class_names);
  const names = new SplitFileNames();
  const files = new Map<string, SplitFile>();
  const missing = new MissingMedia();
  const results = job.predictionSet ? job.spools.spool() : undefined;
  let resultCount = 0;
  const fileOf = (split: string): SplitFile => {
    let file = files.get(split);
    if (!file) {
      file = {
        token: names.of(split),
        images: job.spools.spool(),
        annotations: job.spools.spool(),
        imageCount: 0,
        annotationCount: 0,
        used: new Set(),
        fresh: 1,
      };
      files.set(split, file);
    }
    return file;
  };

  for await (const page of job.pages) {
    const media = readAhead(page.samples, (sample) =>
      job.includeMedia && sample.media ? job.readMedia(sample.media) : Promise.resolve(undefined),
    );
    for await (const [sample, bytes] of media) {
      const file = fileOf(sample.split ?? DEFAULT_SPLIT);
      const fileName = sampleFileName(sample);
      // Image ids are the upload order: unique across splits, so one results file serves all.
      const imageId = sample.seq + 1;
      if (job.includeMedia) {
        if (bytes) await zip.addFile(`images/${file.token}/${fileName}`, bytes);
        else if (sample.media) missing.add(sample.id);
      }
      await file.images.write(
        `${file.imageCount++ ? ',' : ''}\n${JSON.stringify({
          id: imageId,
          file_name: fileName,
          ...(sample.width !== null && sample.height !== null
            ? { width: sample.width, height: sample.height }
            : {}),
        })}`,
      );
      const annotations: string[] = [];
      for (const object of page.objects.get(sample.id) ?? []) {
        const bbox = bboxOf(object);
        annotations.push(
          `${file.annotationCount++ ? ',' : ''}\n${JSON.stringify({
            id: annotationId(file, sample.id, object.id),
            image_id: imageId,
            category_id: categories.id(object.label),
            ...(bbox ? { bbox } : {}),
            area: objectArea(object.segmentation, object.w, object.h),
            iscrowd: object.iscrowd ? 1 : 0,
            ...(object.segmentation ? { segmentation: object.segmentation } : {}),
          })}`,
        );
      }
      if (annotations.length) await file.annotations.write(annotations.join(''));
      if (results) {
        const predicted: string[] = [];
        for (const object of page.predictedObjects.get(sample.id) ?? []) {
          const bbox = bboxOf(object);
          predicted.push(
            `${resultCount++ ? ',' : ''}\n${JSON.stringify({
              image_id: imageId,
              category_id: categories.id(object.label),
              ...(bbox ? { bbox } : {}),
              score: object.score,
              ...(object.segmentation ? { segmentation: object.segmentation } : {}),
            })}`,
          );
        }
        if (predicted.length) await results.write(predicted.join(''));
      }
    }
  }

  // An empty export is still a COCO folder: one split with no images.
  if (files.size === 0) fileOf(DEFAULT_SPLIT);
  const info = JSON.stringify({
    description: `Exported from Loupe: ${job.title}`,
    date_created: job.now.toISOString(),
  });
  const categoriesJson = categories.json();
  for (const file of files.values()) {
    await zip.addStream(
      `annotations/instances_${file.token}.json`,
      joined([
        `{"info":${info},\n"images":[`,
        file.images.read(),
        '\n],\n"annotations":[',
        file.annotations.read(),
        `\n],\n"categories":${categoriesJson}}\n`,
      ]),
    );
  }
  if (results && job.predictionSet) {
    await zip.addStream(
      `predictions/${safePart(job.predictionSet.name)}_results.json`,
      joined(['[', results.read(), '\n]\n']),
    );
  }
  await missing.write(zip);
}
