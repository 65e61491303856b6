// The continuous colour scale of docs/product.md, Datasets §9 (200 steps), shared by the grid's colouring
// and the embeddings map so a value has the same colour in both.

export const CONTINUOUS_STEPS = 200;

// Viridis anchors: perceptually uniform and readable on light and dark backgrounds.
const VIRIDIS: [number, number, number][] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** The colour of step `step` of `CONTINUOUS_STEPS`, as CSS `rgb()`. */
export function continuousStepColor(step: number): string {
  const t = Math.min(1, Math.max(0, step / (CONTINUOUS_STEPS - 1)));
  const position = t * (VIRIDIS.length - 1);
  const low = Math.min(VIRIDIS.length - 2, Math.floor(position));
  const f = position - low;
  const [a, b] = [VIRIDIS[low]!, VIRIDIS[low + 1]!];
  const mix = (i: number) => Math.round(a[i]! + (b[i]! - a[i]!) * f);
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** Which of the 200 steps a value falls in; the maximum belongs to the last step. */
export function continuousStep(value: number, min: number, max: number): number {
  if (!(max > min)) return 0;
  const t = (value - min) / (max - min);
  return Math.min(CONTINUOUS_STEPS - 1, Math.max(0, Math.floor(t * CONTINUOUS_STEPS)));
}
