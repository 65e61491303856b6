// One colour per metadata field and value (docs/product.md, Datasets "Colouring"). The grid, its
// legend, the embeddings map and its legend, the item viewer and the server's legends all ask
// here, so a value never has two colours and never changes with a filter or a reload.
import type { MetadataType } from './datasets.js';
import { categoricalColor, continuousStep, continuousStepColor } from './palette.js';

/** What the colour of a field's values depends on (a `MetadataFieldInfo` fits). */
export interface ColorField {
  id: string;
  type: MetadataType;
  options?:
    | {
        /** Numbers and timestamps: the range over the whole table, not over a filter. */
        min?: number | undefined;
        max?: number | undefined;
        /** Strings: the field's values in their stored order. */
        allowed_values?: readonly string[] | undefined;
      }
    | undefined;
}

/** The dataset's classes: their order, and the colour map where it is at hand. */
export interface DatasetClasses {
  class_names?: readonly string[] | undefined;
  /** Label → colour (`GET /api/datasets/{id}/color_map`); wins over the class order. */
  color_map?: Readonly<Record<string, string>> | undefined;
}

/**
 * Booleans read the same everywhere: false (often "incorrect") warm, true cool. antd's volcano-6
 * and geekblue-5, which keep a 3:1 contrast on light and dark backgrounds and stay apart for
 * red–green colour-blind eyes.
 */
export const BOOLEAN_COLORS = { false: '#fa541c', true: '#597ef7' } as const;

/** Fields whose values are the dataset's class labels. */
export const CLASS_LABEL_FIELDS: readonly string[] = ['label', 'object.label', 'prediction.label'];

export function isClassLabelField(fieldId: string): boolean {
  return CLASS_LABEL_FIELDS.includes(fieldId);
}

/** Hashed colours start past the largest class list, so they are not simply a class's colour. */
const HASHED_OFFSET = 10_000;
const HASHED_COLORS = 1024;

/** A colour that depends on the text alone (FNV-1a over its UTF-16 code units). */
export function stableColor(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return categoricalColor(HASHED_OFFSET + ((h >>> 0) % HASHED_COLORS));
}

function ownColor(map: Readonly<Record<string, string>> | undefined, key: string): string | null {
  if (!map || !Object.prototype.hasOwnProperty.call(map, key)) return null;
  const color = map[key];
  return typeof color === 'string' && color !== '' ? color : null;
}

/** classColor as a function of the label, for many labels: a long class list is indexed once. */
export function classColorScale(classes: DatasetClasses): (label: string) => string {
  const index = new Map<string, number>();
  classes.class_names?.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  return (label) => {
    const mapped = ownColor(classes.color_map, label);
    if (mapped) return mapped;
    const i = index.get(label);
    // A label outside the class list still keeps one colour.
    return i === undefined ? stableColor(label) : categoricalColor(i);
  };
}

/** A class label's colour: the colour map's, else its place in the class list, else its hash. */
export function classColor(label: string, classes: DatasetClasses): string {
  const mapped = ownColor(classes.color_map, label);
  if (mapped) return mapped;
  const i = classes.class_names?.indexOf(label) ?? -1;
  return i >= 0 ? categoricalColor(i) : stableColor(label);
}

/**
 * The colour of each value of `field`, or null for a missing value (drawn neutral grey by the
 * caller). Booleans take BOOLEAN_COLORS; class labels their class's colour; other strings the
 * colour of their position in the field's allowed values (a value outside them its hash);
 * numbers and timestamps one of the 200 steps between the field's overall min and max.
 */
export function fieldColorScale(
  field: ColorField,
  classes: DatasetClasses = {},
): (value: unknown) => string | null {
  if (field.type === 'numeric' || field.type === 'timestamp') {
    const min = field.options?.min ?? 0;
    const max = field.options?.max ?? 1;
    const parse = field.type === 'timestamp' ? Date.parse : Number;
    return (value) => {
      // Timestamps may arrive as ISO strings.
      const number = typeof value === 'string' && value !== '' ? parse(value) : value;
      return typeof number === 'number' && Number.isFinite(number)
        ? continuousStepColor(continuousStep(number, min, max))
        : null;
    };
  }
  if (field.type === 'boolean') {
    return (value) =>
      value === true || value === 'true'
        ? BOOLEAN_COLORS.true
        : value === false || value === 'false'
          ? BOOLEAN_COLORS.false
          : null;
  }
  if (isClassLabelField(field.id)) {
    const colorOf = classColorScale(classes);
    return (value) => (value === null || value === undefined ? null : colorOf(String(value)));
  }
  const position = new Map<string, number>();
  field.options?.allowed_values?.forEach((value, i) => {
    if (!position.has(value)) position.set(value, i);
  });
  return (value) => {
    if (value === null || value === undefined) return null;
    const text = String(value);
    const i = position.get(text);
    return i === undefined ? stableColor(text) : categoricalColor(i);
  };
}

/** The colour of one value of `field` (see fieldColorScale). */
export function fieldValueColor(
  field: ColorField,
  value: unknown,
  classes: DatasetClasses = {},
): string | null {
  return fieldColorScale(field, classes)(value);
}
