// Seeded generators of the metrics benchmark data: COCO-like bbox and segm cases, a large
// classification case and ASR utterance pairs.
import { polygonToRle, rleToString } from '@loupe/metrics';

/** mulberry32: a small, fast, seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

function randomBox(random: () => number, w: number, h: number): number[] {
  // Log-uniform sizes from 4 to 400 px: small, medium and large objects all occur.
  const bw = Math.min(w - 1, Math.exp(Math.log(4) + random() * Math.log(100)));
  const bh = Math.min(h - 1, bw * (0.5 + random() * 1.5));
  return [round2(random() * (w - bw)), round2(random() * (h - bh)), round2(bw), round2(bh)];
}

function jitter(random: () => number, box: number[], amount: number): number[] {
  const [x, y, bw, bh] = box as [number, number, number, number];
  const d = () => (random() * 2 - 1) * amount;
  return [
    round2(x + d() * bw),
    round2(y + d() * bh),
    round2(bw * (1 + d())),
    round2(bh * (1 + d())),
  ];
}

export interface CocoCaseOptions {
  seed: number;
  images: number;
  categories: number;
  gtPerImage: number;
  detectionsPerImage: number;
  segm: boolean;
}

function polygon(random: () => number, box: number[]): number[] {
  const [x, y, bw, bh] = box as [number, number, number, number];
  const n = 6 + Math.floor(random() * 10);
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const angle = (2 * Math.PI * k) / n;
    const r = 0.6 + random() * 0.4;
    out.push(
      round2(x + bw / 2 + (Math.cos(angle) * r * bw) / 2),
      round2(y + bh / 2 + (Math.sin(angle) * r * bh) / 2),
    );
  }
  return out;
}

/** A COCO ground truth and results file as JSON text. */
export function cocoCase(options: CocoCaseOptions): {
  gt: string;
  dt: string;
  numGt: number;
  numDt: number;
} {
  const random = prng(options.seed);
  const images: object[] = [];
  const annotations: object[] = [];
  const results: object[] = [];
  const W = 640;
  const H = 480;
  let annId = 1;
  for (let i = 1; i <= options.images; i++) {
    images.push({ id: i, width: W, height: H, file_name: `${i}.jpg` });
    const numGt = Math.floor(random() * options.gtPerImage * 2 + 0.5);
    const dets: object[] = [];
    for (let g = 0; g < numGt; g++) {
      const category = 1 + Math.floor(random() * options.categories);
      const box = randomBox(random, W, H);
      const crowd = random() < 0.01 ? 1 : 0;
      const ann: Record<string, unknown> = {
        id: annId++,
        image_id: i,
        category_id: category,
        bbox: box,
        area: round2(box[2]! * box[3]! * 0.8),
        iscrowd: crowd,
      };
      if (options.segm) ann.segmentation = [polygon(random, box)];
      annotations.push(ann);
      for (let d = 0; d < 2; d++) {
        if (random() < 0.35) continue;
        const detBox = jitter(random, box, 0.15);
        const cat = random() < 0.9 ? category : 1 + Math.floor(random() * options.categories);
        dets.push(detection(random, i, cat, detBox, options.segm, W, H));
      }
    }
    while (dets.length < options.detectionsPerImage * (0.5 + random())) {
      const cat = 1 + Math.floor(random() * options.categories);
      dets.push(detection(random, i, cat, randomBox(random, W, H), options.segm, W, H));
    }
    results.push(...dets);
  }
  const categories = Array.from({ length: options.categories }, (_, k) => ({
    id: k + 1,
    name: `c${k + 1}`,
  }));
  return {
    gt: JSON.stringify({ images, annotations, categories }),
    dt: JSON.stringify(results),
    numGt: annotations.length,
    numDt: results.length,
  };
}

function detection(
  random: () => number,
  imageId: number,
  category: number,
  box: number[],
  segm: boolean,
  W: number,
  H: number,
): object {
  const score = Math.round(random() * 1000) / 1000;
  if (!segm) return { image_id: imageId, category_id: category, bbox: box, score };
  const rle = polygonToRle(polygon(random, box), H, W);
  return {
    image_id: imageId,
    category_id: category,
    segmentation: { size: [H, W], counts: rleToString(rle) },
    score,
  };
}

/** N items × K classes: labels, predictions and softmax-like scores. */
export function classificationCase(seed: number, n: number, k: number) {
  const random = prng(seed);
  const yTrue = new Int32Array(n);
  const yPred = new Int32Array(n);
  const scores = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    const t = Math.floor(random() * k);
    yTrue[i] = t;
    let sum = 0;
    let best = 0;
    for (let c = 0; c < k; c++) {
      const s = Math.exp((c === t ? 1.5 : 0) + random() * 2);
      scores[i * k + c] = s;
      sum += s;
      if (s > scores[i * k + best]!) best = c;
    }
    for (let c = 0; c < k; c++) scores[i * k + c]! /= sum;
    yPred[i] = best;
  }
  return { yTrue, yPred, scores };
}

/** Reference / hypothesis transcripts with about 10% word errors. */
export function asrCase(seed: number, n: number): { references: string[]; hypotheses: string[] } {
  const random = prng(seed);
  const vocabulary = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
  const word = () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]!;
  const references: string[] = [];
  const hypotheses: string[] = [];
  for (let u = 0; u < n; u++) {
    const length = 5 + Math.floor(random() * 25);
    const ref = Array.from({ length }, word);
    const hyp: string[] = [];
    for (const w of ref) {
      const r = random();
      if (r < 0.04) hyp.push(word());
      else if (r < 0.07) continue;
      else if (r < 0.1) hyp.push(w, word());
      else hyp.push(w);
    }
    references.push(ref.join(' '));
    hypotheses.push(hyp.join(' '));
  }
  return { references, hypotheses };
}
