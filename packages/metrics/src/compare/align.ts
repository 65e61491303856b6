// One class list for the evaluation data of two models before they are compared. Each model's
// data lists the declared classes, then the names it met in order of first appearance, so a label
// one model invented can give the same name different codes in A and B (and even move the codes
// of ground-truth labels read after it). compareModels needs both on the same codes: B's names are
// appended to A's, and each side is recoded only where its codes change. Data already aligned is
// returned as it is, so what @loupe/metrics caches per data object keeps serving it.
import type { ClassEvalData, EvalData, MaskEvalData, ObjectEvalData } from '../report/index.js';

type ClassedData = ClassEvalData | ObjectEvalData | MaskEvalData;

function hasClasses(data: EvalData): data is ClassedData {
  return data.kind === 'class' || data.kind === 'objects' || data.kind === 'mask';
}

const sameNames = (x: readonly string[], y: readonly string[]) =>
  x.length === y.length && x.every((name, i) => name === y[i]);

/** Codes of `classes` in `union`: code k becomes to[k]. */
function codeMap(classes: readonly string[], union: readonly string[]): Int32Array {
  const index = new Map(union.map((name, i) => [name, i]));
  return Int32Array.from(classes, (name) => index.get(name)!);
}

function isIdentity(to: Int32Array): boolean {
  for (let k = 0; k < to.length; k++) if (to[k] !== k) return false;
  return true;
}

/** Recoded labels; −1 (none) stays −1. */
function recode(codes: Int32Array, to: Int32Array): Int32Array {
  return codes.map((code) => (code < 0 ? code : to[code]!));
}

/**
 * N×K probabilities as N×K' in the union's order. A row that has probabilities gives a class it
 * did not know 0 (as the loader does for a name it was not given); a row without any stays NaN.
 */
function recodeProbabilities(
  probabilities: Float32Array,
  K: number,
  to: Int32Array,
  width: number,
): Float32Array {
  const n = K === 0 ? 0 : probabilities.length / K;
  const out = new Float32Array(n * width).fill(NaN);
  for (let i = 0; i < n; i++) {
    const row = probabilities.subarray(i * K, i * K + K);
    if (row.every(Number.isNaN)) continue;
    out.fill(0, i * width, i * width + width);
    for (let k = 0; k < K; k++) out[i * width + to[k]!] = row[k]!;
  }
  return out;
}

/** K×K confusions (row = truth, column = prediction) as K'×K' in the union's order. */
function recodeConfusion(confusion: Float64Array, K: number, to: Int32Array, width: number) {
  const out = new Float64Array(width * width);
  for (let t = 0; t < K; t++) {
    for (let p = 0; p < K; p++) out[to[t]! * width + to[p]!] = confusion[t * K + p]!;
  }
  return out;
}

function onClasses(data: ClassedData, union: string[]): ClassedData {
  if (sameNames(data.classes, union)) return data;
  const to = codeMap(data.classes, union);
  const same = isIdentity(to);
  switch (data.kind) {
    case 'class':
      return {
        ...data,
        classes: union,
        truth: same ? data.truth : recode(data.truth, to),
        pred: same ? data.pred : recode(data.pred, to),
        probabilities:
          data.probabilities &&
          recodeProbabilities(data.probabilities, data.classes.length, to, union.length),
      };
    case 'objects':
      // Codes that do not move keep their arrays (and the per-object indexes built on them).
      return {
        ...data,
        classes: union,
        gt: same ? data.gt : { ...data.gt, label: recode(data.gt.label, to) },
        pred: same ? data.pred : { ...data.pred, label: recode(data.pred.label, to) },
      };
    case 'mask':
      return {
        ...data,
        classes: union,
        confusion: data.confusion.map(
          (c) => c && recodeConfusion(c, data.classes.length, to, union.length),
        ),
      };
  }
}

/**
 * Both models' evaluation data on one class list: A's classes, then the names only B has, in
 * B's order. Data without classes, data of different kinds (which compareModels refuses), and
 * data already on the same list are returned unchanged (the same objects).
 */
export function alignClasses(a: EvalData, b: EvalData): [EvalData, EvalData] {
  if (!hasClasses(a) || !hasClasses(b) || a.kind !== b.kind) return [a, b];
  if (sameNames(a.classes, b.classes)) return [a, b];
  const known = new Set(a.classes);
  const union = [...a.classes, ...b.classes.filter((name) => !known.has(name))];
  return [onClasses(a, union), onClasses(b, union)];
}
