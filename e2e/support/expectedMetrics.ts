// Metrics the journeys expect, computed from a dataset's description with @loupe/metrics: the
// same numbers the server must show, derived without it.
import { evaluateCoco, type CocoAnnotation, type CocoDetection } from '@loupe/metrics';
import type { DatasetSpec } from './performanceData';

/** The spec's samples, or those of them with the given ids. */
export const samplesOf = (spec: DatasetSpec, ids?: readonly string[]) =>
  spec.samples.filter((sample) => !ids || ids.includes(sample.id));

/** COCO mAP (IoU .50:.95) of a model over some of the spec's images, as pycocotools gives it. */
export function cocoMap(spec: DatasetSpec, model: string, ids?: readonly string[]): number {
  const samples = samplesOf(spec, ids);
  const category = (label: string) => spec.class_names.indexOf(label) + 1;
  const annotations: CocoAnnotation[] = [];
  const detections: CocoDetection[] = [];
  samples.forEach((sample, index) => {
    for (const object of sample.objects ?? []) {
      annotations.push({
        id: annotations.length + 1,
        image_id: index + 1,
        category_id: category(object.label),
        bbox: object.bbox,
        area: object.bbox[2] * object.bbox[3],
        iscrowd: 0,
      });
    }
    const prediction = spec.predictions[model]!.find((entry) => entry.id === sample.id);
    for (const object of prediction?.objects ?? []) {
      detections.push({
        image_id: index + 1,
        category_id: category(object.label),
        bbox: object.bbox,
        score: object.score ?? 1,
      });
    }
  });
  const gt = {
    images: samples.map((sample, index) => ({
      id: index + 1,
      width: sample.picture.width,
      height: sample.picture.height,
    })),
    annotations,
    categories: spec.class_names.map((name, index) => ({ id: index + 1, name })),
  };
  return evaluateCoco(gt, detections, 'bbox').stats[0]!;
}
