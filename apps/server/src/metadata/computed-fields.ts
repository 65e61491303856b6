// The metadata the metadata pass computes for every item, by data level (ids are stable:
// filters and sorts refer to them), and the default features it adds.
import type { DataLevel } from '@loupe/contracts';
import type { MetadataFieldRecord } from '../datasets/metadata-fields.repository.js';

interface FieldSpec {
  id: string;
  label: string;
  type: MetadataFieldRecord['type'];
  group: string;
  description: string;
}

/** Built-in computed fields by data level (ids are stable: filters and sorts refer to them). */
export const COMPUTED_FIELDS: Record<DataLevel, FieldSpec[]> = {
  image: [
    {
      id: 'image.width',
      label: 'Width',
      type: 'numeric',
      group: 'Image',
      description: 'Width in pixels',
    },
    {
      id: 'image.height',
      label: 'Height',
      type: 'numeric',
      group: 'Image',
      description: 'Height in pixels',
    },
    {
      id: 'image.aspect_ratio',
      label: 'Aspect ratio',
      type: 'numeric',
      group: 'Image',
      description: 'Width divided by height',
    },
    {
      id: 'image.file_size',
      label: 'File size',
      type: 'numeric',
      group: 'Image',
      description: 'Size of the file in bytes',
    },
    {
      id: 'image.format',
      label: 'Format',
      type: 'string',
      group: 'Image',
      description: 'Encoding of the file (jpeg, png, …)',
    },
    {
      id: 'image.brightness',
      label: 'Brightness',
      type: 'numeric',
      group: 'Image quality',
      description: 'Mean Rec. 601 luma, 0 (black) to 1 (white)',
    },
    {
      id: 'image.contrast',
      label: 'Contrast',
      type: 'numeric',
      group: 'Image quality',
      description: 'RMS contrast: standard deviation of luma, 0 to 0.5',
    },
    {
      id: 'image.sharpness',
      label: 'Sharpness',
      type: 'numeric',
      group: 'Image quality',
      description:
        'Variance of the Laplacian of luma, measured at most 512 px on the longest side; low means blurry',
    },
    {
      id: 'image.colorfulness',
      label: 'Colourfulness',
      type: 'numeric',
      group: 'Image quality',
      description: 'Hasler–Süsstrunk colourfulness',
    },
    {
      id: 'image.phash',
      label: 'Perceptual hash',
      type: 'string',
      group: 'Image',
      description: '64-bit DCT perceptual hash (hex)',
    },
    {
      id: 'image.content_hash',
      label: 'Content hash',
      type: 'string',
      group: 'Image',
      description:
        'Hash of the decoded content: equal for the same picture in any lossless encoding',
    },
    {
      id: 'image.object_count',
      label: 'Object count',
      type: 'numeric',
      group: 'Objects',
      description: 'Ground-truth objects in the image',
    },
    {
      id: 'image.corrupt',
      label: 'Corrupt media',
      type: 'boolean',
      group: 'Image',
      description: 'The file could not be read or decoded',
    },
  ],
  image_object: [
    {
      id: 'object.area',
      label: 'Area',
      type: 'numeric',
      group: 'Object',
      description: 'Box area in pixels',
    },
    {
      id: 'object.relative_area',
      label: 'Relative area',
      type: 'numeric',
      group: 'Object',
      description: 'Box area divided by image area',
    },
    {
      id: 'object.aspect_ratio',
      label: 'Aspect ratio',
      type: 'numeric',
      group: 'Object',
      description: 'Box width divided by height',
    },
    {
      id: 'object.label',
      label: 'Label',
      type: 'string',
      group: 'Object',
      description: 'Ground-truth label',
    },
  ],
  audio: [
    {
      id: 'audio.duration',
      label: 'Duration',
      type: 'numeric',
      group: 'Audio',
      description: 'Length in seconds',
    },
    {
      id: 'audio.sample_rate',
      label: 'Sample rate',
      type: 'numeric',
      group: 'Audio',
      description: 'Samples per second',
    },
    {
      id: 'audio.channels',
      label: 'Channels',
      type: 'numeric',
      group: 'Audio',
      description: 'Number of channels',
    },
    {
      id: 'audio.file_size',
      label: 'File size',
      type: 'numeric',
      group: 'Audio',
      description: 'Size of the file in bytes',
    },
    {
      id: 'audio.rms_dbfs',
      label: 'Loudness (RMS)',
      type: 'numeric',
      group: 'Audio quality',
      description: 'RMS level in dBFS',
    },
    {
      id: 'audio.peak_dbfs',
      label: 'Peak',
      type: 'numeric',
      group: 'Audio quality',
      description: 'Peak level in dBFS',
    },
    {
      id: 'audio.silence_fraction',
      label: 'Silence fraction',
      type: 'numeric',
      group: 'Audio quality',
      description: 'Fraction of 20 ms frames below −40 dBFS',
    },
    {
      id: 'audio.clipped_fraction',
      label: 'Clipped fraction',
      type: 'numeric',
      group: 'Audio quality',
      description: 'Fraction of samples (all channels) at or above 0.999 of full scale',
    },
    {
      id: 'audio.spectral_centroid',
      label: 'Spectral centroid',
      type: 'numeric',
      group: 'Audio quality',
      description: 'Mean spectral centroid in Hz',
    },
    {
      id: 'audio.content_hash',
      label: 'Content hash',
      type: 'string',
      group: 'Audio',
      description:
        'Hash of the decoded content: equal for the same samples in any lossless encoding',
    },
    {
      id: 'audio.corrupt',
      label: 'Corrupt media',
      type: 'boolean',
      group: 'Audio',
      description: 'The file could not be read or decoded',
    },
  ],
};

export const DEFAULT_FEATURE = {
  image: 'loupe.image_descriptor',
  audio: 'loupe.audio_mfcc',
} as const;

/** Fields about ground-truth objects: only tasks with objects (detection, instance segmentation). */
const OBJECT_FIELDS = new Set(['image.object_count']);

/** The computed fields a task gets at a level: no object fields for a task without objects. */
export function computedFields(level: DataLevel, hasObjects: boolean): FieldSpec[] {
  return COMPUTED_FIELDS[level].filter((field) => hasObjects || !OBJECT_FIELDS.has(field.id));
}

/** The computed fields of a level as the dataset's metadata fields, in the given state. */
export function computedFieldRecords(
  datasetId: string,
  level: DataLevel,
  hasObjects: boolean,
  now: number,
  state: 'available' | 'pending',
): MetadataFieldRecord[] {
  return computedFields(level, hasObjects).map((field) => ({
    dataset_id: datasetId,
    data_level: level,
    id: field.id,
    name: field.id,
    label: field.label,
    description: field.description,
    group_name: field.group,
    source: 'computed',
    type: field.type,
    state,
    created_at: now,
  }));
}
