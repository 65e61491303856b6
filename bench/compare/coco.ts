// COCO detection evaluation against pycocotools: bench/metrics' generated bbox case (5,000
// images, 80 categories), load both JSON files + evaluate + accumulate, the 12 summary stats.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateCoco } from '@loupe/metrics';
import { cocoCase as generateCoco } from '../metrics/generate.js';
import { caseFolder, report, runReference, timed, type Times } from './harness.js';

const IMAGES = Number(process.env.COCO_IMAGES ?? 5000);
const COCO_RUNS = Number(process.env.COCO_RUNS ?? 3);

export function cocoCase(): void {
  const generated = generateCoco({
    seed: 1,
    images: IMAGES,
    categories: 80,
    gtPerImage: 7.2,
    detectionsPerImage: 27,
    segm: false,
  });
  const folder = caseFolder('coco');
  try {
    const gtPath = join(folder.dir, 'gt.json');
    const dtPath = join(folder.dir, 'dt.json');
    writeFileSync(gtPath, generated.gt);
    writeFileSync(dtPath, generated.dt);
    const loupe = timed(
      () =>
        evaluateCoco(
          JSON.parse(readFileSync(gtPath, 'utf8')),
          JSON.parse(readFileSync(dtPath, 'utf8')),
          'bbox',
        ).stats,
      COCO_RUNS,
      { warm: false },
    );
    const reference = runReference<Times & { stats: number[] }>('coco', 'pycocotools', folder.dir, {
      iou_type: 'bbox',
      runs: COCO_RUNS,
    });
    const ours = Array.from(loupe.result);
    let quality = `AP ${ours[0]!.toFixed(4)}`;
    if (!('missing' in reference)) {
      const worst = Math.max(...ours.map((s, i) => Math.abs(s - reference.stats[i]!)));
      quality = `12 stats equal to within ${worst.toExponential(1)} (AP ${ours[0]!.toFixed(4)})`;
    }
    report({
      step: `COCO bbox: ${IMAGES.toLocaleString('en')} images, ${generated.numGt.toLocaleString('en')} boxes, ${generated.numDt.toLocaleString('en')} detections (parse + evaluate + accumulate), p50 of ${COCO_RUNS}`,
      loupe,
      ...('missing' in reference ? { missing: reference.missing } : { reference }),
      quality,
    });
  } finally {
    folder.dispose();
  }
}
