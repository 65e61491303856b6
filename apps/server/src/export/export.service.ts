// Exports of a subset or of chosen items as a zip of the COCO or CSV folder layout
// (docs/formats.md, "Exporting"; docs/curation.md): checked first (license, dataset, subset,
// format, data level, prediction set), then streamed page by page, so neither the archive nor
// the item list is ever held whole (object-level exports hold the chosen object ids).
import type { Readable } from 'node:stream';
import {
  DATA_LEVELS,
  SUBSET_MESSAGES,
  TASK_TRAITS,
  type DataLevel,
  type ExportFormat,
} from '@loupe/contracts';
import { requireDataset } from '../datasets/datasets.service.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { MetadataFieldsRepository } from '../datasets/metadata-fields.repository.js';
import type { LicenseService } from '../license/license.service.js';
import type { Clock } from '../platform/clock.js';
import { BadRequest, NotFound } from '../platform/errors.js';
import type {
  PredictedObjectRecord,
  PredictionSetsRepository,
} from '../prediction-sets/prediction-sets.repository.js';
import type { BlobStore } from '../storage/blob-store.js';
import {
  BLOB_PREFIX,
  mediaKey,
  mediaKind,
  urlMediaKey,
  type MediaResolver,
} from '../storage/media.js';
import type { Actor } from '../users/actor.js';
import { writeCoco } from './coco-export.js';
import { csvMetadataColumns, writeCsv } from './csv-export.js';
import { CsvTextSource } from './csv-text.js';
import { safePart, type ExportJob, type ExportPage, type ExportWriter } from './export-job.js';
import type {
  ExportObject,
  ExportRepository,
  ExportSample,
  SampleFields,
} from './export.repository.js';
import { SpoolFolder } from './text-spool.js';
import { zipStream } from './zip-stream.js';

/** Samples per page: each page is a few queries and one pass of the writer. */
export const EXPORT_PAGE = 5_000;

export interface ExportRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  metadataFields: Pick<MetadataFieldsRepository, 'list'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  exports: ExportRepository;
}

export interface ExportDownload {
  /** `<dataset>-<subset>-<format>.zip`, safe as a file name. */
  filename: string;
  stream: Readable;
}

export interface ExportOptions {
  /** Benchmarks of the text files leave the media out (their bytes are never read). */
  includeMedia?: boolean;
  /** Items per page (EXPORT_PAGE): tests make several pages of a few items. */
  pageSize?: number;
}

const WRITERS: Record<ExportFormat, ExportWriter> = { coco: writeCoco, csv: writeCsv };

/**
 * Where an export's items come from: pages of item ids (what object-level exports read), and
 * pages of the live samples they name (image and audio levels).
 */
interface ItemSource {
  itemIds(): AsyncIterable<string[]>;
  /** `after`: the item id to start after (where a CSV's worker thread stopped). */
  samples(fields: SampleFields, after?: string): AsyncIterable<ExportSample[]>;
  /** The subset the items are, when they are one (a CSV's rows may then be made on threads). */
  subsetId?: string;
}

export class ExportService {
  constructor(
    private readonly repos: ExportRepos,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly blobs: Pick<BlobStore, 'get'>,
    private readonly resolver: Pick<MediaResolver, 'read'>,
    private readonly clock: Clock,
    /** Where exports spool their text files (under the data folder). */
    private readonly spoolRoot: string,
  ) {}

  async exportSubset(
    actor: Actor,
    datasetId: string,
    subsetId: string,
    query: { format: ExportFormat; predictions_id?: string | undefined },
    options: ExportOptions = {},
  ): Promise<ExportDownload> {
    await this.license.requireLicense('export items', { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const subset = await this.repos.exports.findSubset(datasetId, subsetId);
    if (!subset) throw new NotFound(SUBSET_MESSAGES.notFound);
    const exports = this.repos.exports;
    const pageSize = options.pageSize ?? EXPORT_PAGE;
    const source: ItemSource = {
      async *itemIds() {
        let after = '';
        for (;;) {
          const ids = await exports.subsetItemIdsAfter(subset.id, after, pageSize);
          if (ids.length) yield ids;
          if (ids.length < pageSize) return;
          after = ids[ids.length - 1]!;
        }
      },
      samples: (fields, after) =>
        exports.subsetSamplePages(dataset.id, subset.id, pageSize, fields, after),
      subsetId: subset.id,
    };
    return this.start(dataset, subset.name, subset.data_level as DataLevel, source, query, options);
  }

  async exportSelection(
    actor: Actor,
    datasetId: string,
    body: {
      format: ExportFormat;
      data_level: DataLevel;
      item_ids: string[];
      name: string;
      predictions_id?: string | undefined;
    },
    options: ExportOptions = {},
  ): Promise<ExportDownload> {
    await this.license.requireLicense('export items', { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const ids = [...new Set(body.item_ids)];
    const exports = this.repos.exports;
    const pageSize = options.pageSize ?? EXPORT_PAGE;
    const source: ItemSource = {
      async *itemIds() {
        for (let start = 0; start < ids.length; start += pageSize)
          yield ids.slice(start, start + pageSize);
      },
      async *samples(fields) {
        for await (const part of this.itemIds()) {
          const samples = await exports.liveSamples(dataset.id, part, fields);
          if (samples.length) yield samples;
        }
      },
    };
    return this.start(dataset, body.name, body.data_level, source, body, options);
  }

  private async start(
    dataset: DatasetRecord,
    name: string,
    level: DataLevel,
    source: ItemSource,
    request: { format: ExportFormat; predictions_id?: string | undefined },
    options: ExportOptions,
  ): Promise<ExportDownload> {
    const traits = TASK_TRAITS[dataset.task_type];
    const { format } = request;
    if (format === 'coco' && !traits.hasObjects)
      throw new BadRequest(
        `COCO exports hold objects: they are for object_detection and instance_segmentation datasets, not ${dataset.task_type} ('${dataset.name}'). Export it as csv.`,
      );
    if (!DATA_LEVELS[dataset.task_type].includes(level))
      throw new BadRequest(
        `${SUBSET_MESSAGES.levelMismatch} A ${dataset.task_type} dataset has the data levels ${DATA_LEVELS[dataset.task_type].join(', ')}, not ${level}.`,
      );
    const objectLevel = level === 'image_object';
    if (objectLevel && !traits.hasObjects)
      throw new BadRequest(
        `A ${dataset.task_type} dataset has no objects to export: export its images (data level image).`,
      );
    let predictionSet: ExportJob['predictionSet'] = null;
    if (request.predictions_id) {
      const set = await this.repos.predictionSets.findSet(request.predictions_id);
      if (!set || set.dataset_id !== dataset.id)
        throw new NotFound(`No prediction set with id ${request.predictions_id} in this dataset.`);
      predictionSet = {
        id: set.id,
        name: set.name,
        hasProbabilities:
          traits.label === 'class' && (await this.repos.exports.hasProbabilities(set.id)),
      };
    }
    const fields = await this.repos.metadataFields.list(
      dataset.id,
      DATA_LEVELS[dataset.task_type][0],
    );
    const metadataColumns = fields.filter((f) => f.source === 'uploaded').map((f) => f.id);
    const now = new Date(this.clock());
    const includeMedia = options.includeMedia ?? true;
    const csvText =
      format === 'csv' && !objectLevel && !predictionSet
        ? await this.csvText(dataset, source, metadataColumns, includeMedia, options)
        : undefined;
    const spools = new SpoolFolder(this.spoolRoot);
    const job: ExportJob = {
      dataset,
      title: `${dataset.name} / ${name}`,
      pages: objectLevel
        ? this.objectPages(dataset, source, predictionSet?.id ?? null, format, metadataColumns)
        : this.samplePages(
            dataset,
            source,
            predictionSet?.id ?? null,
            format,
            metadataColumns,
            csvText,
          ),
      predictionSet,
      metadataColumns,
      readMedia: (ref) => this.readMedia(dataset.id, ref),
      includeMedia,
      ...(csvText ? { csvText } : {}),
      spools,
      now,
    };
    const write = WRITERS[format];
    const stream = zipStream(async (zip) => {
      try {
        await write(zip, job);
      } finally {
        await spools.remove();
      }
    }, now);
    return { filename: exportFileName(dataset.name, name, format), stream };
  }

  /**
   * A CSV's rows made on worker threads (csv-text.ts): for a subset, with ground truth the
   * threads write (labels, values, transcripts).
   */
  private async csvText(
    dataset: DatasetRecord,
    source: ItemSource,
    metadataColumns: string[],
    includeMedia: boolean,
    options: ExportOptions,
  ): Promise<CsvTextSource | undefined> {
    const fields = sampleFields(dataset, 'csv', metadataColumns);
    const { truth } = fields;
    const { subsetId } = source;
    if (truth !== 'label' && truth !== 'values_json' && truth !== 'transcript') return undefined;
    if (!subsetId) return undefined;
    const pageSize = options.pageSize ?? EXPORT_PAGE;
    const pages = await this.repos.exports.csvPages(dataset.id, subsetId, pageSize, fields);
    if (!pages) return undefined;
    return new CsvTextSource({
      datasetId: dataset.id,
      subsetId,
      after: '',
      pages,
      pageSize,
      truth,
      valueNames: dataset.value_names,
      metadata: [...fields.metadata],
      mediaFolder: TASK_TRAITS[dataset.task_type].media === 'audio' ? 'audio' : 'images',
      includeMedia,
    });
  }

  /** Pages of the chosen samples, with their objects and predictions. */
  private async *samplePages(
    dataset: DatasetRecord,
    source: ItemSource,
    predictionsId: string | null,
    format: ExportFormat,
    metadataColumns: string[],
    csvText?: CsvTextSource,
  ): AsyncGenerator<ExportPage> {
    // After a worker thread's rows (written first): from where it stopped, if it did.
    const after = csvText ? await csvText.resumeAfter() : undefined;
    if (after === null) return;
    const fields = sampleFields(dataset, format, metadataColumns);
    for await (const samples of source.samples(fields, after)) {
      const objects = TASK_TRAITS[dataset.task_type].hasObjects
        ? await this.repos.exports.liveObjectsOfSamples(
            dataset.id,
            samples.map((s) => s.id),
          )
        : [];
      yield this.page(samples, objects, predictionsId);
    }
  }

  /**
   * Pages of the samples of the chosen objects, each with only its chosen objects. The chosen
   * ids are gathered by sample first (in memory: object-level selections are small next to a
   * dataset's samples), so a sample comes once however its objects were ordered.
   */
  private async *objectPages(
    dataset: DatasetRecord,
    source: ItemSource,
    predictionsId: string | null,
    format: ExportFormat,
    metadataColumns: string[],
  ): AsyncGenerator<ExportPage> {
    const fields = sampleFields(dataset, format, metadataColumns);
    const chosen = new Map<string, Set<string>>();
    for await (const ids of source.itemIds()) {
      for (const object of await this.repos.exports.liveObjectsByIds(dataset.id, ids)) {
        let set = chosen.get(object.sample_id);
        if (!set) chosen.set(object.sample_id, (set = new Set()));
        set.add(object.id);
      }
    }
    const sampleIds = [...chosen.keys()];
    for (let start = 0; start < sampleIds.length; start += EXPORT_PAGE) {
      const part = sampleIds.slice(start, start + EXPORT_PAGE);
      const samples = await this.repos.exports.liveSamples(dataset.id, part, fields);
      if (samples.length === 0) continue;
      const objects = (
        await this.repos.exports.liveObjectsOfSamples(
          dataset.id,
          samples.map((s) => s.id),
        )
      ).filter((o) => chosen.get(o.sample_id)?.has(o.id));
      yield this.page(samples, objects, predictionsId);
    }
  }

  private async page(
    samples: ExportSample[],
    objects: ExportObject[],
    predictionsId: string | null,
  ): Promise<ExportPage> {
    samples.sort((a, b) => a.seq - b.seq);
    if (!predictionsId && objects.length === 0)
      return { samples, objects: new Map(), predictions: new Map(), predictedObjects: new Map() };
    const ids = samples.map((s) => s.id);
    const [predictions, predictedObjects] = predictionsId
      ? await Promise.all([
          this.repos.exports.predictionsOf(predictionsId, ids),
          this.repos.exports.predictedObjectsOf(predictionsId, ids),
        ])
      : [[], [] as PredictedObjectRecord[]];
    return {
      samples,
      objects: groupBy(objects, (o) => o.sample_id),
      predictions: new Map(predictions.map((p) => [p.sample_id, p])),
      predictedObjects: groupBy(predictedObjects, (o) => o.sample_id),
    };
  }

  /**
   * A sample's media or mask bytes: an uploaded blob, the stored copy of a media URL (a URL is
   * never fetched here), or a file under LOUPE_MEDIA_ROOTS. Undefined when they cannot be read.
   */
  private async readMedia(datasetId: string, ref: string): Promise<Buffer | undefined> {
    try {
      switch (mediaKind(ref)) {
        case 'blob':
          return await this.blobs.get(mediaKey(datasetId, ref.slice(BLOB_PREFIX.length)));
        case 'url':
          return await this.blobs.get(urlMediaKey(datasetId, ref));
        case 'path':
          return await this.resolver.read(datasetId, ref);
      }
    } catch {
      return undefined;
    }
  }
}

/** The columns a format reads of a task's samples (only a CSV writes their metadata). */
function sampleFields(
  dataset: DatasetRecord,
  format: ExportFormat,
  metadataColumns: string[],
): SampleFields {
  const truth = {
    class: 'label',
    value: 'values_json',
    mask: 'mask',
    transcript: 'transcript',
    objects: null,
  } as const;
  return {
    truth: truth[TASK_TRAITS[dataset.task_type].label],
    size: format === 'coco',
    metadata: format === 'csv' ? csvMetadataColumns(dataset, metadataColumns) : [],
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** `<dataset>-<subset>-<format>.zip` with anything unsafe in a file name replaced. */
export function exportFileName(datasetName: string, name: string, format: ExportFormat): string {
  return `${safePart(datasetName)}-${safePart(name)}-${format}.zip`;
}
