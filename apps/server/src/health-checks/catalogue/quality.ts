// Image Quality and Audio Quality checks (docs/health-checks.md, "Media quality"): thresholds on
// the measures the metadata pass stores per item, one check per problem.
import {
  aboveThreshold,
  atOrAboveThreshold,
  AUDIO_QUALITY_DEFAULTS as AUDIO,
  belowThreshold,
  durationOutOfRange,
  durationUpperFence,
  grayscaleAmongColour,
  IMAGE_QUALITY_DEFAULTS as IMAGE,
  oddAspectRatio,
  oddSize,
  tooQuiet,
  trueValues,
  type ItemVerdicts,
} from '@loupe/analysis';
import {
  TASK_TRAITS,
  type CheckGroup,
  type CheckParams,
  type DataLevel,
  type TaskType,
} from '@loupe/contracts';
import { deleteRecommendation, tidy } from './common.js';
import type { CheckDefinition, CheckOutcome, CheckRunInput, SampleColumns } from './types.js';

type Media = 'image' | 'audio';

interface FloatSpec {
  label: string;
  description: string;
  value: number;
  min: number;
  max: number;
}

/** What one quality check is: its texts, params, the columns it reads and its per-item rule. */
interface QualitySpec {
  key: string;
  media: Media;
  name: string;
  description: string[];
  configDescription: string;
  params: Record<string, FloatSpec>;
  /** Metadata field ids it needs (numeric, or boolean for corrupt flags). */
  metadata: string[];
  /** The metadata whose value the flagged items carry (one of `metadata`)… */
  measure: string;
  /** …unless this computes it (e.g. the pixel count from width and height). */
  measured?: (samples: SampleColumns) => Float64Array;
  /** The direction that puts the worst items first. */
  worstFirst: 'ascending' | 'descending';
  summary: string;
  deleteName: string;
  decide(samples: SampleColumns, value: (name: string) => number): ItemVerdicts;
}

function numeric(samples: SampleColumns, id: string): Float64Array {
  const column = samples.numeric[id];
  if (!column) throw new Error(`The metadata '${id}' is not available`);
  return column;
}

function boolean(samples: SampleColumns, id: string): Int8Array {
  const column = samples.booleans[id];
  if (!column) throw new Error(`The metadata '${id}' is not available`);
  return column;
}

/** A boolean column as numbers (1, 0; NaN missing) for the flagged items' values. */
function booleanValues(samples: SampleColumns, id: string): Float64Array {
  return Float64Array.from(boolean(samples, id), (v) => (v < 0 ? NaN : v));
}

const param = (
  label: string,
  description: string,
  value: number,
  min: number,
  max: number,
): FloatSpec => ({ label, description, value, min, max });

const IMAGE_SPECS: QualitySpec[] = [
  {
    key: 'dark',
    media: 'image',
    name: 'Too dark images',
    description: [
      'Finds images whose mean brightness (Rec. 601 luma, 0 black to 1 white) is below a threshold.',
    ],
    configDescription: 'Images darker than the threshold fail.',
    params: {
      threshold: param('Brightness below', 'Mean luma from 0 to 1', IMAGE.darkBrightness, 0, 1),
    },
    metadata: ['image.brightness'],
    measure: 'image.brightness',
    worstFirst: 'ascending',
    summary: '{n} images are too dark',
    deleteName: 'Delete dark images',
    decide: (s, p) => belowThreshold(numeric(s, 'image.brightness'), p('threshold')),
  },
  {
    key: 'bright',
    media: 'image',
    name: 'Too bright images',
    description: [
      'Finds images whose mean brightness (Rec. 601 luma, 0 black to 1 white) is above a threshold.',
    ],
    configDescription: 'Images brighter than the threshold fail.',
    params: {
      threshold: param('Brightness above', 'Mean luma from 0 to 1', IMAGE.brightBrightness, 0, 1),
    },
    metadata: ['image.brightness'],
    measure: 'image.brightness',
    worstFirst: 'descending',
    summary: '{n} images are too bright',
    deleteName: 'Delete bright images',
    decide: (s, p) => aboveThreshold(numeric(s, 'image.brightness'), p('threshold')),
  },
  {
    key: 'blurry',
    media: 'image',
    name: 'Blurry images',
    description: [
      'Finds images whose sharpness (variance of the Laplacian of luma, measured at most 512 px on the longest side) is below a threshold.',
      'Images of flat graphics can measure low without being blurry.',
    ],
    configDescription: 'Images less sharp than the threshold fail.',
    params: {
      threshold: param(
        'Sharpness below',
        'Variance of the Laplacian of luma (0–255 scale)',
        IMAGE.blurrySharpness,
        0,
        10_000,
      ),
    },
    metadata: ['image.sharpness'],
    measure: 'image.sharpness',
    worstFirst: 'ascending',
    summary: '{n} images are blurry',
    deleteName: 'Delete blurry images',
    decide: (s, p) => belowThreshold(numeric(s, 'image.sharpness'), p('threshold')),
  },
  {
    key: 'low_information',
    media: 'image',
    name: 'Low-information images',
    description: [
      'Finds nearly uniform images: their contrast (standard deviation of luma, 0 to 0.5) is below a threshold.',
    ],
    configDescription: 'Images with less contrast than the threshold fail.',
    params: {
      threshold: param('Contrast below', 'RMS contrast from 0 to 0.5', IMAGE.lowContrast, 0, 0.5),
    },
    metadata: ['image.contrast'],
    measure: 'image.contrast',
    worstFirst: 'ascending',
    summary: '{n} images carry little information',
    deleteName: 'Delete low-information images',
    decide: (s, p) => belowThreshold(numeric(s, 'image.contrast'), p('threshold')),
  },
  {
    key: 'odd_aspect_ratio',
    media: 'image',
    name: 'Unusual aspect ratio',
    description: [
      "Finds images whose aspect ratio is far from the dataset's usual one (its log more than z robust standard deviations from the median, the spread at least 0.1), or wider or taller than a limit.",
    ],
    configDescription:
      'Choose how far from the usual aspect ratio an image may be, and the widest ratio allowed either way.',
    params: {
      sensitivity: param(
        'Sensitivity',
        'Robust standard deviations of the log aspect ratio from its median',
        IMAGE.oddZ,
        1,
        20,
      ),
      max_ratio: param(
        'Largest ratio',
        'Width / height and height / width above this fail',
        IMAGE.maxAspectRatio,
        1,
        100,
      ),
    },
    metadata: ['image.aspect_ratio'],
    measure: 'image.aspect_ratio',
    worstFirst: 'descending',
    summary: '{n} images have an unusual aspect ratio',
    deleteName: 'Delete images of unusual aspect ratio',
    decide: (s, p) =>
      oddAspectRatio(numeric(s, 'image.aspect_ratio'), p('sensitivity'), p('max_ratio')),
  },
  {
    key: 'odd_size',
    media: 'image',
    name: 'Unusual image size',
    description: [
      "Finds images whose pixel count is far from the dataset's usual one (its log more than z robust standard deviations from the median, the spread at least ln 4 / 4), or with a side shorter than a minimum.",
    ],
    configDescription:
      'Choose how far from the usual size an image may be, and the shortest side allowed.',
    params: {
      sensitivity: param(
        'Sensitivity',
        'Robust standard deviations of the log pixel count from its median',
        IMAGE.oddZ,
        1,
        20,
      ),
      min_side: param('Shortest side', 'Pixels', IMAGE.minSide, 1, 10_000),
    },
    metadata: ['image.width', 'image.height'],
    measure: 'image.width',
    measured: (s) => {
      const height = numeric(s, 'image.height');
      return numeric(s, 'image.width').map((w, i) => w * height[i]!);
    },
    worstFirst: 'descending',
    summary: '{n} images have an unusual size',
    deleteName: 'Delete images of unusual size',
    decide: (s, p) =>
      oddSize(
        numeric(s, 'image.width'),
        numeric(s, 'image.height'),
        p('sensitivity'),
        p('min_side'),
      ),
  },
  {
    key: 'grayscale',
    media: 'image',
    name: 'Grayscale images among colour images',
    description: [
      'Finds grey images (Hasler–Süsstrunk colourfulness below a threshold) in a dataset of mostly colour images (at least 80 % with colourfulness of 5 or more).',
    ],
    configDescription:
      'Images less colourful than the threshold fail when most images are in colour.',
    params: {
      threshold: param(
        'Colourfulness below',
        'Hasler–Süsstrunk colourfulness (0 for grey)',
        IMAGE.grayColorfulness,
        0,
        100,
      ),
    },
    metadata: ['image.colorfulness'],
    measure: 'image.colorfulness',
    worstFirst: 'ascending',
    summary: '{n} grey images among colour images',
    deleteName: 'Delete grey images',
    decide: (s, p) => grayscaleAmongColour(numeric(s, 'image.colorfulness'), p('threshold')),
  },
  {
    key: 'corrupt',
    media: 'image',
    name: 'Corrupt images',
    description: ['Finds images whose file could not be decoded.'],
    configDescription: 'Images the metadata pass could not decode fail.',
    params: {},
    metadata: ['image.corrupt'],
    measure: 'image.corrupt',
    worstFirst: 'descending',
    summary: '{n} images are corrupt',
    deleteName: 'Delete corrupt images',
    decide: (s) => trueValues(boolean(s, 'image.corrupt')),
  },
];

const AUDIO_SPECS: QualitySpec[] = [
  {
    key: 'silent',
    media: 'audio',
    name: 'Silent audio clips',
    description: [
      'Finds clips that are almost all silence: the share of 20 ms frames below −40 dBFS is at least a threshold.',
    ],
    configDescription: 'Clips with at least this share of silent frames fail.',
    params: {
      threshold: param(
        'Silent share from',
        'Share of silent frames, 0 to 1',
        AUDIO.silentFraction,
        0,
        1,
      ),
    },
    metadata: ['audio.silence_fraction'],
    measure: 'audio.silence_fraction',
    worstFirst: 'descending',
    summary: '{n} audio clips are silent',
    deleteName: 'Delete silent clips',
    decide: (s, p) => atOrAboveThreshold(numeric(s, 'audio.silence_fraction'), p('threshold')),
  },
  {
    key: 'clipped',
    media: 'audio',
    name: 'Clipped audio clips',
    description: [
      'Finds clips whose share of samples at full scale (|x| ≥ 0.999) is at least a threshold.',
    ],
    configDescription: 'Clips with at least this share of clipped samples fail.',
    params: {
      threshold: param(
        'Clipped share from',
        'Share of samples at full scale, 0 to 1',
        AUDIO.clippedFraction,
        0,
        1,
      ),
    },
    metadata: ['audio.clipped_fraction'],
    measure: 'audio.clipped_fraction',
    worstFirst: 'descending',
    summary: '{n} audio clips are clipped',
    deleteName: 'Delete clipped clips',
    decide: (s, p) => atOrAboveThreshold(numeric(s, 'audio.clipped_fraction'), p('threshold')),
  },
  {
    key: 'too_quiet',
    media: 'audio',
    name: 'Too quiet audio clips',
    description: [
      'Finds clips whose RMS level is below a threshold although they are not silent (less than 95 % silent frames).',
    ],
    configDescription: 'Clips quieter than the threshold fail.',
    params: {
      threshold: param('Level below', 'RMS level in dBFS', AUDIO.quietDbfs, -120, 0),
    },
    metadata: ['audio.rms_dbfs', 'audio.silence_fraction'],
    measure: 'audio.rms_dbfs',
    worstFirst: 'ascending',
    summary: '{n} audio clips are too quiet',
    deleteName: 'Delete quiet clips',
    decide: (s, p) =>
      tooQuiet(numeric(s, 'audio.rms_dbfs'), numeric(s, 'audio.silence_fraction'), p('threshold')),
  },
  {
    key: 'duration',
    media: 'audio',
    name: 'Too short or too long audio clips',
    description: [
      "Finds clips shorter than a minimum or longer than a maximum; the maximum is by default the dataset's upper fence (third quartile + 3 × interquartile range of the durations).",
    ],
    configDescription: 'Clips outside the range fail; a maximum of 0 uses the upper fence.',
    params: {
      min_seconds: param('Shortest', 'Seconds', AUDIO.minDuration, 0, 3600),
      max_seconds: param(
        'Longest',
        "Seconds; 0 uses the dataset's upper fence of durations",
        0,
        0,
        86_400,
      ),
    },
    metadata: ['audio.duration'],
    measure: 'audio.duration',
    worstFirst: 'descending',
    summary: '{n} audio clips are too short or too long',
    deleteName: 'Delete clips of unusual duration',
    decide: (s, p) => {
      const duration = numeric(s, 'audio.duration');
      const max = p('max_seconds') > 0 ? p('max_seconds') : durationUpperFence(duration);
      return durationOutOfRange(duration, p('min_seconds'), max);
    },
  },
  {
    key: 'corrupt',
    media: 'audio',
    name: 'Corrupt audio files',
    description: ['Finds audio files that could not be decoded.'],
    configDescription: 'Clips the metadata pass could not decode fail.',
    params: {},
    metadata: ['audio.corrupt'],
    measure: 'audio.corrupt',
    worstFirst: 'descending',
    summary: '{n} audio files are corrupt',
    deleteName: 'Delete corrupt files',
    decide: (s) => trueValues(boolean(s, 'audio.corrupt')),
  },
];

/** The explorer's label of each check's `value` field. */
const VALUE_LABELS: Record<string, string> = {
  dark: 'Brightness',
  bright: 'Brightness',
  blurry: 'Sharpness',
  low_information: 'Contrast',
  odd_aspect_ratio: 'Aspect ratio',
  odd_size: 'Pixel count',
  grayscale: 'Colourfulness',
  corrupt: 'Corrupt',
  silent: 'Silent share',
  clipped: 'Clipped share',
  too_quiet: 'RMS level (dBFS)',
  duration: 'Duration (s)',
};

function definition(spec: QualitySpec, order: number): CheckDefinition {
  const group: CheckGroup = spec.media === 'image' ? 'Image Quality' : 'Audio Quality';
  const levels = (task: TaskType): DataLevel[] =>
    TASK_TRAITS[task].media === spec.media ? [spec.media] : [];
  const isBoolean = spec.measure.endsWith('.corrupt');
  return {
    key: spec.key,
    group,
    levels,
    name: () => spec.name,
    description: () => spec.description,
    configDescription: spec.configDescription,
    params: (): CheckParams =>
      Object.fromEntries(
        Object.entries(spec.params).map(([name, p]) => [name, { type: 'float' as const, ...p }]),
      ),
    requires: { metadata: spec.metadata },
    inputs: spec.metadata.map((metadata) => ({ metadata })),
    fields: [{ name: 'value', label: VALUE_LABELS[spec.key] ?? 'Measured value', type: 'numeric' }],
    order,
    run({ snapshot, params }: CheckRunInput): CheckOutcome {
      const samples = snapshot.samples;
      const value = (name: string): number => {
        const p = params[name];
        if (p?.type === 'float' || p?.type === 'int') return p.value;
        const fallback = spec.params[name];
        if (!fallback) throw new Error(`Unknown param '${name}'`);
        return fallback.value;
      };
      const verdicts = spec.decide(samples, value);
      const measured = spec.measured
        ? spec.measured(samples)
        : isBoolean
          ? booleanValues(samples, spec.measure)
          : numeric(samples, spec.measure);
      const ids: string[] = [];
      const values: (number | null)[] = [];
      let checked = 0;
      verdicts.forEach((verdict, row) => {
        if (verdict < 0) return;
        checked++;
        if (verdict === 0) return;
        ids.push(samples.ids[row]!);
        const v = measured[row]!;
        values.push(Number.isFinite(v) ? tidy(v) : null);
      });
      return {
        checked,
        flagged: { ids, values: { value: values } },
        summary: spec.summary,
        preview: {
          sort_by: [{ name: 'value', direction: spec.worstFirst }],
          visible_metadata_ids: [...spec.metadata],
        },
        evidence: [],
        recommendation: deleteRecommendation(ids, spec.deleteName),
        is_approximate: false,
      };
    },
  };
}

export const qualityChecks: CheckDefinition[] = [
  ...IMAGE_SPECS.map(definition),
  ...AUDIO_SPECS.map(definition),
];
