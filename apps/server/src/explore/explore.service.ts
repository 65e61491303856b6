// The explorer's reads (docs/product.md, Datasets §7): item ids by filter and sort, items by row or id,
// metadata info, histograms, colour map and item features. Queries run on a cached in-memory
// item table that is checked against the dataset's data_version on every request.
import {
  attributionId,
  encodeIndices,
  categoricalColorMap,
  DATA_LEVELS,
  fieldColorScale,
  TASK_TRAITS,
  type ColorField,
  type ColorMapResponse,
  type DataLevel,
  type ExploreComparison,
  type ExploreItem,
  type ExploreObject,
  type Filter,
  type HistogramResponse,
  type ItemFeaturesResponse,
  type ItemIdsResponse,
  type ItemsResponse,
  type ItemPrediction,
  type MetadataFieldInfo,
  type MetadataInfoResponse,
  type MetadataValue,
  type SortEntry,
  SUBSET_MESSAGES,
} from '@loupe/contracts';
import {
  bitsetToRows,
  evaluateFilter,
  histogram,
  idsAt,
  queryRows,
  rowIndex,
  rowsOfIds,
  type Bitset,
} from '@loupe/analysis';
import type { ComparedItems, ComparedItemsSource } from '../comparison/compared-items.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { HistoryRepository } from '../datasets/history.repository.js';
import type {
  MetadataFieldRecord,
  MetadataFieldsRepository,
} from '../datasets/metadata-fields.repository.js';
import type { FeaturesRepository } from '../features/features.repository.js';
import { AppError, BadRequest, NotFound } from '../platform/errors.js';
import type {
  PredictedObjectRecord,
  PredictionRecord,
  PredictionSetsRepository,
} from '../prediction-sets/prediction-sets.repository.js';
import type {
  NumericValues,
  ObjectRecord,
  SamplesRepository,
} from '../samples/samples.repository.js';
import { BLOB_PREFIX } from '../storage/media.js';
import { SubsetRowsCache, type SubsetRows } from '../subsets/subset-rows.js';
import type { SubsetsRepository } from '../subsets/subsets.repository.js';
import { thumbnailUrl } from '../storage/thumbnail-refs.js';
import type { Actor } from '../users/actor.js';
import { withChecks, type CheckColumnsSource } from './check-columns.js';
import { withComparison } from './comparison-columns.js';
import type { ExploreRepository } from './explore.repository.js';
import { ItemTableCache } from './item-table-cache.js';
import type { TableBuilder } from './table-builder.js';
import { snapshotFingerprint, type TableSnapshots } from './table-snapshots.js';
import { tablePatch, type ItemEdits } from './item-table-patch.js';
import { fieldDefs, MAX_ALLOWED_VALUES, PREDICTED_OBJECT_PREFIX } from './field-catalogue.js';
import {
  exploreTableBytes,
  loadItemTable,
  prepareSortIndexesInBackground,
  type ExploreTable,
  type FieldStats,
} from './item-table-loader.js';

export const SUBSET_NOT_FOUND = SUBSET_MESSAGES.notFound;
/** Items one `items` call may ask for (the viewer asks batches of 120). */
export const MAX_ITEMS_PER_CALL = 1000;

interface Context {
  dataset: DatasetRecord;
  level: DataLevel;
  explore: ExploreTable;
  pending: Set<string>;
  stored: MetadataFieldRecord[];
  /** With a comparison: its compared items and the other model's prediction set. */
  comparison: { items: ComparedItems; otherId: string } | null;
}

/** An explore request's comparison context, and who asks (the comparison needs a license). */
interface ComparisonInput {
  value: ExploreComparison;
  actor: Actor | undefined;
  /** The request field named in a 400: body.comparison, or query.comparison_a for metadata info. */
  where: string;
}

export interface ExploreRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  metadataFields: Pick<MetadataFieldsRepository, 'list'>;
  history: Pick<HistoryRepository, 'list' | 'itemIds'>;
  samples: Pick<SamplesRepository, 'byIds'>;
  features: Pick<FeaturesRepository, 'list'>;
  explore: ExploreRepository;
  subsets: Pick<SubsetsRepository, 'find' | 'memberIds'>;
}

/** What item_ids and item_rows select and order. */
export interface ItemQueryInput {
  data_level: DataLevel;
  sort: SortEntry[];
  filter?: Filter | null | undefined;
  include_missing: boolean;
  subset_id?: string | undefined;
  predictions_id?: string | undefined;
  comparison?: ExploreComparison | undefined;
}

export interface ItemIdsInput extends ItemQueryInput {
  format: 'rows' | 'ids';
}

export interface ItemsInput {
  data_level: DataLevel;
  item_ids?: string[] | undefined;
  rows?: number[] | undefined;
  version?: number | undefined;
  predictions_id?: string | undefined;
  comparison?: ExploreComparison | undefined;
}

export interface HistogramInput {
  metadata_id: string;
  data_level: DataLevel;
  predictions_id?: string | undefined;
  comparison?: ExploreComparison | undefined;
  filter?: Filter | null | undefined;
  subset_id?: string | undefined;
  max_num_bins: number;
}

export interface MetadataInfoInput {
  data_level: DataLevel;
  predictions_id?: string | undefined;
  comparison_a?: string | undefined;
  comparison_b?: string | undefined;
  comparison_split?: string | undefined;
  comparison_metric?: string | undefined;
  comparison_value_name?: string | undefined;
}

function bodyComparison(
  value: ExploreComparison | undefined,
  actor: Actor | undefined,
): ComparisonInput | undefined {
  return value && { value, actor, where: 'body.comparison' };
}

/** Metadata info is a GET: its comparison comes as flat query fields, both models or neither. */
function queryComparison(
  query: MetadataInfoInput,
  actor: Actor | undefined,
): ComparisonInput | undefined {
  const a = query.comparison_a;
  const b = query.comparison_b;
  if (a === undefined && b === undefined) return undefined;
  if (a === undefined) throw new BadRequest('query.comparison_a: required with comparison_b.');
  if (b === undefined) throw new BadRequest('query.comparison_b: required with comparison_a.');
  return {
    value: {
      predictions_id_a: a,
      predictions_id_b: b,
      split: query.comparison_split ?? 'all',
      ...(query.comparison_metric !== undefined ? { metric: query.comparison_metric } : {}),
      ...(query.comparison_value_name !== undefined
        ? { regression_value_name: query.comparison_value_name }
        : {}),
    },
    actor,
    where: 'query.comparison_a',
  };
}

export class ExploreService {
  /** A subset's rows per item table, so paging inside a subset reads its members once. */
  private readonly subsetRows = new SubsetRowsCache();
  /** Snapshot files due to be written (docs/explore-snapshots.md). */
  private readonly saving = new Set<Promise<void>>();

  constructor(
    private readonly repos: ExploreRepos,
    private readonly cache: ItemTableCache = new ItemTableCache(),
    private readonly comparisons?: ComparedItemsSource,
    private readonly checks?: CheckColumnsSource,
    private readonly snapshots?: TableSnapshots,
    private readonly builder?: TableBuilder,
  ) {}

  /** Tables built so far (tests check the cache with it). */
  get tableBuilds(): number {
    return this.cache.builds;
  }

  /**
   * After label or split edits committed, taking the dataset from data_version `from` to `to`:
   * this process's cached tables of version `from` take the new values in place instead of
   * being rebuilt on their next read (docs/curation.md); the patched tables are then written as
   * the new version's files, which other processes read instead of rebuilding theirs.
   */
  applyItemEdits(datasetId: string, from: number, to: number, edits: ItemEdits): void {
    const patched = this.cache.patch(datasetId, from, to, (level) => tablePatch(level, edits, to));
    // The patched tables are the new version's: written down for the next process to start,
    // with the sort indexes of their changed columns.
    for (const { level, predictionsId, table } of patched)
      this.saveSnapshot(datasetId, level, predictionsId, table);
  }

  /**
   * Writes the table's file once the table and its sort indexes are ready (the indexes are
   * written with it). Nothing to wait for: a table not written is built again when needed.
   */
  private saveSnapshot(
    datasetId: string,
    level: string,
    predictionsId: string | null,
    table: Promise<ExploreTable>,
  ): void {
    const snapshots = this.snapshots;
    if (!snapshots) return;
    const saving = table.then(
      async (explore) => {
        await prepareSortIndexesInBackground(explore.table);
        if (explore.fingerprint)
          await snapshots.write(datasetId, level, predictionsId, explore, explore.fingerprint);
      },
      () => undefined, // a failed patch or build: nothing to write
    );
    this.saving.add(saving);
    void saving.finally(() => this.saving.delete(saving));
  }

  /**
   * Reads back the tables of the most recently used files, newest first, while their sizes fit
   * in `budgetBytes`: a restarted API process then answers its first visitors from memory.
   * Only files of the datasets' current data versions and field setups are read; nothing is
   * built from the database. Answers how many tables were read.
   */
  async prewarm(budgetBytes: number): Promise<number> {
    if (!this.snapshots) return 0;
    let used = 0;
    let read = 0;
    for (const file of await this.snapshots.recent()) {
      if (used + file.bytes > budgetBytes) break;
      const dataset = await this.repos.datasets.find(file.datasetId);
      if (!dataset || dataset.data_version !== file.version) continue;
      const level = file.level as DataLevel;
      if (!DATA_LEVELS[dataset.task_type].includes(level)) continue;
      const key = ItemTableCache.key(dataset.id, level, file.predictionsId);
      if (this.cache.peek(key, dataset.data_version)) continue; // asked for meanwhile
      const stored = await this.repos.metadataFields.list(dataset.id, level);
      const fields = fieldDefs(dataset, level, stored, file.predictionsId !== null);
      const fingerprint = snapshotFingerprint(dataset, fields, stored);
      if (
        !(await this.snapshots.holds(
          dataset.id,
          level,
          file.predictionsId,
          dataset.data_version,
          fingerprint,
        ))
      )
        continue;
      used += file.bytes;
      read++;
      // Through the cache, so that a request for the same table meanwhile waits for this read.
      await this.cache.get(key, dataset.data_version, () =>
        this.buildTable(dataset, level, stored, file.predictionsId),
      );
    }
    return read;
  }

  /**
   * A large table built on the table thread, which writes its file, then read back from the
   * file; null when it is small, there is no thread, or the thread's table is not the one
   * wanted (the data version or the field setup moved meanwhile): the caller builds in process.
   */
  private async buildOnThread(
    dataset: DatasetRecord,
    level: DataLevel,
    predictionsId: string | null,
    fingerprint: string,
  ): Promise<ExploreTable | null> {
    const { builder, snapshots } = this;
    if (!builder || !snapshots) return null;
    const items = level === 'image_object' ? dataset.objects_count : dataset.samples_count;
    if (items < builder.minItems) return null;
    const built = await builder.build(dataset.id, level, predictionsId).catch((error: unknown) => {
      snapshots.buildFailed(dataset.id, level, error);
      return null;
    });
    if (!built || built.version !== dataset.data_version || built.fingerprint !== fingerprint)
      return null;
    const saved = await snapshots.read(
      dataset.id,
      level,
      predictionsId,
      built.version,
      fingerprint,
    );
    return saved && this.adopt(dataset.id, level, saved, fingerprint);
  }

  /** A table read back from its file, as the cache keeps it; its sort indexes checked meanwhile. */
  private adopt(
    datasetId: string,
    level: DataLevel,
    saved: Omit<ExploreTable, 'bytes'>,
    fingerprint: string,
  ): ExploreTable {
    void prepareSortIndexesInBackground(saved.table, (id) =>
      this.snapshots?.refusedIndex(datasetId, level, id),
    );
    return { ...saved, bytes: exploreTableBytes(saved.table, saved.objects), fingerprint };
  }

  /** Tables read back from snapshot files since start (tests and benchmarks). */
  get snapshotReads(): number {
    return this.snapshots?.reads ?? 0;
  }

  /** Resolves when the snapshot files due so far have been written (tests, shutdown). */
  async snapshotsSettled(): Promise<void> {
    while (this.saving.size > 0) await Promise.all([...this.saving]);
  }

  /** Writes the files due, then ends the table thread (the server is stopping). */
  async close(): Promise<void> {
    await this.snapshotsSettled();
    await this.builder?.close();
  }

  /**
   * Whether every one of `ids` names a live item of a level, answered from this process's cached
   * table of the dataset at data_version `version` or newer (tables hold live items only)
   * without building one: null when none is cached. Subset creation checks 100,000 ids so
   * instead of looking each up in the database (1 s on PostgreSQL); the table's id index it
   * builds on first use (0.2-0.4 s at 1,000,000 rows) then serves the subset's first `item_ids`.
   */
  async cachedAllLive(
    datasetId: string,
    level: DataLevel,
    version: number,
    ids: readonly string[],
  ): Promise<boolean | null> {
    const cached = this.cache.peek(ItemTableCache.key(datasetId, level, null), version);
    const explore = cached ? await cached.catch(() => null) : null;
    if (!explore) return null;
    const index = rowIndex(explore.table);
    return ids.every((id) => index.get(id) !== undefined);
  }

  private async context(
    datasetId: string,
    level: DataLevel,
    predictionsId: string | undefined,
    where: 'body' | 'query',
    comparison?: ComparisonInput,
  ): Promise<Context> {
    const dataset = await this.repos.datasets.find(datasetId);
    if (!dataset) {
      this.cache.forget(datasetId);
      void this.snapshots?.forget(datasetId);
      throw new NotFound(`No dataset with id ${datasetId}.`);
    }
    const task = dataset.task_type;
    if (!DATA_LEVELS[task].includes(level)) {
      throw new BadRequest(
        `${where}.data_level: a ${task} dataset has no ${level} level (it has ${DATA_LEVELS[task].join(', ')}).`,
      );
    }
    if (predictionsId !== undefined) {
      const set = await this.repos.predictionSets.findSet(predictionsId);
      if (!set || set.dataset_id !== datasetId)
        throw new NotFound(`No prediction set with id ${predictionsId} in dataset ${datasetId}.`);
    }
    // Computed (or read from the comparison's cache) while the table loads.
    const compared = comparison
      ? this.comparedItems(dataset, predictionsId, comparison)
      : Promise.resolve(null);
    compared.catch(() => undefined); // awaited below: not an unhandled rejection meanwhile
    const stored = await this.repos.metadataFields.list(datasetId, level);
    const base = await this.cache.get(
      ItemTableCache.key(datasetId, level, predictionsId ?? null),
      dataset.data_version,
      () => this.buildTable(dataset, level, stored, predictionsId ?? null),
    );
    const items = await compared;
    let explore = items ? withComparison(base, items, level, predictionsId!) : base;
    // The health checks' per-item fields (docs/health-checks.md, "Explorer").
    const checks = await this.checks?.columns(dataset, level, predictionsId);
    if (checks) explore = withChecks(explore, checks);
    const pending = new Set(stored.filter((f) => f.state === 'pending').map((f) => f.id));
    const otherId =
      items &&
      (predictionsId === items.context.predictions_id_a
        ? items.context.predictions_id_b
        : items.context.predictions_id_a);
    return {
      dataset,
      level,
      explore,
      pending,
      stored,
      comparison: items && otherId ? { items, otherId } : null,
    };
  }

  /**
   * A table at the dataset's data version: read back from its snapshot file when one was
   * written (by this process before a restart, or by another), else built from the database and
   * then written down (docs/explore-snapshots.md).
   */
  private async buildTable(
    dataset: DatasetRecord,
    level: DataLevel,
    stored: MetadataFieldRecord[],
    predictionsId: string | null,
  ): Promise<ExploreTable> {
    const fields = fieldDefs(dataset, level, stored, predictionsId !== null);
    const fingerprint = snapshotFingerprint(dataset, fields, stored);
    const saved = await this.snapshots?.read(
      dataset.id,
      level,
      predictionsId,
      dataset.data_version,
      fingerprint,
    );
    if (saved) return this.adopt(dataset.id, level, saved, fingerprint);
    const threaded = await this.buildOnThread(dataset, level, predictionsId, fingerprint);
    if (threaded) return threaded;
    const explore = {
      ...(await loadItemTable({ repo: this.repos.explore, dataset, level, stored, predictionsId })),
      fingerprint,
    };
    this.saveSnapshot(dataset.id, level, predictionsId, Promise.resolve(explore));
    return explore;
  }

  /**
   * The compared items of a request's comparison (docs/model-comparison.md, "The explorer in a
   * comparison"): its predictions_id must be model A or model B of it.
   */
  private comparedItems(
    dataset: DatasetRecord,
    predictionsId: string | undefined,
    { value, actor, where }: ComparisonInput,
  ): Promise<ComparedItems> {
    if (predictionsId !== value.predictions_id_a && predictionsId !== value.predictions_id_b)
      throw new BadRequest(
        `${where}: predictions_id must be model A (${value.predictions_id_a}) or model B (${value.predictions_id_b}) of the comparison.`,
      );
    if (!this.comparisons || !actor) throw new BadRequest(`${where}: comparison is not available.`);
    return this.comparisons.items(actor, dataset, value);
  }

  /** Refuses unknown and pending fields before the engine runs. */
  private checkField(context: Context, id: string, where: string): void {
    if (!context.explore.table.columns.has(id))
      throw new BadRequest(
        `${where}: unknown metadata field '${id}' at the ${context.level} level.`,
      );
    if (context.pending.has(id))
      throw new BadRequest(
        `${where}: metadata field '${id}' is being recomputed; try again when it is available.`,
      );
  }

  private async checkFilter(context: Context, filter: Filter, where: string): Promise<void> {
    const records = new Set<string>();
    const visit = (f: Filter): void => {
      if (f.type === 'and' || f.type === 'or') f.children.forEach(visit);
      else if (f.type === 'not') visit(f.child);
      else if (f.type === 'history') records.add(f.record_id);
      else this.checkField(context, f.metadata_id, where);
    };
    visit(filter);
    if (records.size === 0) return;
    const known = new Set((await this.repos.history.list(context.dataset.id)).map((r) => r.id));
    for (const id of records)
      if (!known.has(id)) throw new BadRequest(`${where}: unknown history record '${id}'.`);
  }

  /** The filter's rows; engine errors (wrong type for a field, bad timestamp) become 400s. */
  private async filterRows(context: Context, filter: Filter | null | undefined, where: string) {
    if (!filter) return null;
    await this.checkFilter(context, filter, where);
    try {
      return evaluateFilter(context.explore.table, filter, {
        recordRows: await this.recordRows(context, filter),
      });
    } catch (error) {
      throw new BadRequest(`${where}: ${(error as Error).message}`);
    }
  }

  /**
   * The rows of the items each history record of the filter touched, at the table's level
   * (docs/curation.md). sample:create records select through table.createdRecord (objects too,
   * by their sample), the others through their history items; a record of another level selects
   * nothing, and deleted items are not in the table.
   */
  private async recordRows(context: Context, filter: Filter): Promise<Map<string, Uint32Array>> {
    const ids = new Set<string>();
    const visit = (f: Filter): void => {
      if (f.type === 'and' || f.type === 'or') f.children.forEach(visit);
      else if (f.type === 'not') visit(f.child);
      else if (f.type === 'history') ids.add(f.record_id);
    };
    visit(filter);
    const out = new Map<string, Uint32Array>();
    if (ids.size === 0) return out;
    const { table } = context.explore;
    for (const record of await this.repos.history.list(context.dataset.id)) {
      if (!ids.has(record.id)) continue;
      const own = record.operation_type !== 'sample:create' && record.data_level === context.level;
      out.set(
        record.id,
        own
          ? bitsetToRows(rowsOfIds(table, await this.repos.history.itemIds(record.id)))
          : new Uint32Array(0),
      );
    }
    return out;
  }

  /** The rows of a subset's live items in the context's table; null without a subset. */
  private async subset(context: Context, subsetId: string | undefined): Promise<SubsetRows | null> {
    if (subsetId === undefined) return null;
    const subset = await this.repos.subsets.find(context.dataset.id, subsetId);
    if (!subset) throw new NotFound(SUBSET_NOT_FOUND);
    if (subset.data_level !== context.level) throw new BadRequest(SUBSET_MESSAGES.levelFixed);
    return this.subsetRows.rows(
      context.explore.table,
      subset,
      () => this.repos.subsets.memberIds(subset.id),
      () => rowIndex(context.explore.table),
    );
  }

  /**
   * The item table of a level (and prediction set) and the rows a filter keeps, within a subset's
   * live items when given (null: all), for reads that other features answer from the same table
   * (the embeddings scatter plot). The rows may be the cached subset bits: read them, never write.
   * `fields` are refused as the explorer refuses them: unknown, or pending while recomputed
   * (`where` names the request field in the 400). With the explorer's `comparison` (asked by
   * `actor`) the table is the explorer's derived one, so the filter and fields may name the
   * comparison's per-item fields as in the explorer's own requests.
   */
  async view(
    datasetId: string,
    level: DataLevel,
    predictionsId: string | undefined,
    filter: Filter | null | undefined,
    subsetId?: string,
    fields: readonly { id: string; where: string }[] = [],
    comparison?: ExploreComparison,
    actor?: Actor,
  ): Promise<{ dataset: DatasetRecord; explore: ExploreTable; rows: Bitset | null }> {
    const context = await this.context(
      datasetId,
      level,
      predictionsId,
      'body',
      bodyComparison(comparison, actor),
    );
    for (const field of fields) this.checkField(context, field.id, field.where);
    const subset = await this.subset(context, subsetId);
    const rows = within(await this.filterRows(context, filter, 'body.filter'), subset);
    return { dataset: context.dataset, explore: context.explore, rows };
  }

  async itemIds(datasetId: string, input: ItemIdsInput, actor?: Actor): Promise<ItemIdsResponse> {
    const { rows, table, numItems } = await this.resultRows(datasetId, input, actor);
    const base = { total: rows.length, num_items: numItems, version: table.version };
    if (input.format === 'ids') return { ...base, item_ids: idsAt(table, rows) };
    const bytes = encodeIndices(rows, { version: table.version });
    return {
      ...base,
      rows: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    };
  }

  /**
   * The item_ids query's rows as the bytes of their encoding (count and table version in its
   * header), and the level's item count: item_rows sends them as they are, without base64 or
   * JSON, which at millions of rows cost more than the query (docs/performance.md).
   */
  async itemRows(
    datasetId: string,
    input: ItemQueryInput,
    actor?: Actor,
  ): Promise<{ bytes: Uint8Array; num_items: number }> {
    const { rows, table, numItems } = await this.resultRows(datasetId, input, actor);
    return { bytes: encodeIndices(rows, { version: table.version }), num_items: numItems };
  }

  /** A query's rows in result order, its table and the level's (or subset's) item count. */
  private async resultRows(datasetId: string, input: ItemQueryInput, actor: Actor | undefined) {
    const context = await this.context(
      datasetId,
      input.data_level,
      input.predictions_id,
      'body',
      bodyComparison(input.comparison, actor),
    );
    const subset = await this.subset(context, input.subset_id);
    input.sort.forEach((entry, i) => this.checkField(context, entry.name, `body.sort[${i}].name`));
    const { table } = context.explore;
    const bits = within(await this.filterRows(context, input.filter, 'body.filter'), subset);
    let rows: Uint32Array;
    try {
      rows = queryRows(table, {
        within: bits,
        sort: input.sort,
        include_missing: input.include_missing,
      });
    } catch (error) {
      throw new BadRequest(`body.sort: ${(error as Error).message}`);
    }
    return { rows, table, numItems: subset ? subset.count : table.length };
  }

  async items(datasetId: string, input: ItemsInput, actor?: Actor): Promise<ItemsResponse> {
    const byRows = input.rows !== undefined;
    if (byRows === (input.item_ids !== undefined))
      throw new BadRequest('body: give either rows (with version) or item_ids.');
    if (byRows && input.version === undefined)
      throw new BadRequest(
        'body.version: required with rows (the version of the item_ids answer).',
      );
    const context = await this.context(
      datasetId,
      input.data_level,
      input.predictions_id,
      'body',
      bodyComparison(input.comparison, actor),
    );
    const { table } = context.explore;
    let rows: number[];
    if (byRows) {
      if (input.version !== table.version) {
        throw new AppError(
          409,
          `The items changed since these rows were fetched (version ${input.version}, now ${table.version}). Fetch the item ids again.`,
          true,
        );
      }
      rows = input.rows!;
      const outside = rows.find((row) => row >= table.length);
      if (outside !== undefined)
        throw new BadRequest(
          `body.rows: row ${outside} is outside the table (${table.length} rows).`,
        );
    } else {
      const index = rowIndex(context.explore.table);
      // Unknown ids are left out: the caller may hold ids of items deleted meanwhile.
      rows = input.item_ids!.flatMap((id) => {
        const row = index.get(id);
        return row === undefined ? [] : [row];
      });
    }
    const items = await this.assemble(context, rows, input.predictions_id);
    return { items, version: table.version };
  }

  private async assemble(
    context: Context,
    rows: number[],
    predictionsId: string | undefined,
  ): Promise<ExploreItem[]> {
    const { dataset, explore, level } = context;
    const datasetId = dataset.id;
    const ids = rows.map((row) => explore.table.ids[row]!);
    const objectLevel = level === 'image_object';
    // Object items: find their objects first, then their samples.
    const gtObjectIds = objectLevel
      ? ids.filter((id) => !id.startsWith(PREDICTED_OBJECT_PREFIX))
      : [];
    const ownObjects = new Map<string, ObjectRecord>(
      (await this.repos.explore.objectsByIds(datasetId, gtObjectIds)).map((o) => [o.id, o]),
    );
    const sampleIdOfPred = new Map<string, string>();
    const sampleIds = objectLevel ? new Set<string>() : new Set(ids);
    for (const o of ownObjects.values()) sampleIds.add(o.sample_id);
    const sampleColumn = explore.table.columns.get('sample_id');
    if (objectLevel && sampleColumn && 'codes' in sampleColumn) {
      rows.forEach((row, i) => {
        const code = sampleColumn.codes[row]!;
        if (code >= 0) {
          sampleIds.add(sampleColumn.categories[code]!);
          if (ids[i]!.startsWith(PREDICTED_OBJECT_PREFIX))
            sampleIdOfPred.set(ids[i]!, sampleColumn.categories[code]!);
        }
      });
    }
    const sampleList = [...sampleIds];
    // With a comparison, the other model's predictions of the same samples are drawn too.
    const otherId = context.comparison?.otherId;
    const [
      samples,
      objects,
      predictions,
      predictedObjects,
      attributions,
      otherPredictions,
      otherObjects,
    ] = await Promise.all([
      this.repos.samples.byIds(datasetId, sampleList),
      this.repos.explore.objectsOfSamples(datasetId, sampleList),
      predictionsId
        ? this.repos.explore.predictionsOf(predictionsId, sampleList)
        : Promise.resolve([] as PredictionRecord[]),
      predictionsId
        ? this.repos.explore.predictedObjectsOfSamples(predictionsId, sampleList)
        : Promise.resolve([] as PredictedObjectRecord[]),
      // A heatmap belongs to a sample: drawn over the primary view at the sample level only.
      predictionsId && !objectLevel
        ? this.repos.explore.attributionsOfSamples(predictionsId, sampleList)
        : Promise.resolve([]),
      otherId
        ? this.repos.explore.predictionsOf(otherId, sampleList)
        : Promise.resolve([] as PredictionRecord[]),
      otherId
        ? this.repos.explore.predictedObjectsOfSamples(otherId, sampleList)
        : Promise.resolve([] as PredictedObjectRecord[]),
    ]);
    const attributionsBySample = groupBy(attributions, (a) => a.sample_id);
    const sampleById = new Map(samples.map((s) => [s.id, s]));
    const objectsBySample = groupBy(objects, (o) => o.sample_id);
    const predObjectsBySample = groupBy(predictedObjects, (o) => o.sample_id);
    const predictionBySample = new Map(predictions.map((p) => [p.sample_id, p]));
    const predObjectById = new Map(predictedObjects.map((o) => [o.id, o]));
    const otherPredictionBySample = new Map(otherPredictions.map((p) => [p.sample_id, p]));
    const otherObjectsBySample = groupBy(otherObjects, (o) => o.sample_id);
    const classNames = dataset.class_names;
    const valueNames = dataset.value_names;
    const base = `/api/datasets/${encodeURIComponent(datasetId)}`;
    const mediaUrl = (ref: string | null) =>
      ref?.startsWith(BLOB_PREFIX) ? `${base}/media/${ref.slice(BLOB_PREFIX.length)}` : null;
    // A sample's prediction as an item shows it (objects are items of their own).
    const samplePrediction = (p: PredictionRecord): ItemPrediction => ({
      label: p.label,
      score: p.score,
      probabilities: probabilitiesRecord(p.probabilities, classNames),
      values: valuesRecord(p.values, valueNames),
      transcript: p.transcript,
      mask_src: mediaUrl(p.mask),
    });

    const out: ExploreItem[] = [];
    rows.forEach((row, i) => {
      const id = ids[i]!;
      const isPred = id.startsWith(PREDICTED_OBJECT_PREFIX);
      const own = objectLevel
        ? isPred
          ? predObjectById.get(id.slice(PREDICTED_OBJECT_PREFIX.length))
          : ownObjects.get(id)
        : undefined;
      const sampleId = objectLevel
        ? isPred
          ? sampleIdOfPred.get(id)
          : (own as ObjectRecord | undefined)?.sample_id
        : id;
      const sample = sampleId === undefined ? undefined : sampleById.get(sampleId);
      if (!sample || (objectLevel && !own)) return; // deleted since the table was built
      const computed = sample.computed ?? {};
      const num = (key: string) =>
        typeof computed[key] === 'number' ? (computed[key] as number) : null;
      const width = num('image.width');
      const height = num('image.height');
      const audio = sample.media_type === 'audio';
      const thumbnail = thumbnailUrl(datasetId, sample);
      const fractions = (o: {
        x: number | null;
        y: number | null;
        w: number | null;
        h: number | null;
      }) =>
        o.x === null || o.y === null || o.w === null || o.h === null || !width || !height
          ? null
          : ([o.y / height, o.x / width, (o.y + o.h) / height, (o.x + o.w) / width] as [
              number,
              number,
              number,
              number,
            ]);
      const objectList: ExploreObject[] = [
        ...(objectsBySample.get(sample.id) ?? []).map((o) => exploreObject(o, 'gt', fractions)),
        ...(predObjectsBySample.get(sample.id) ?? []).map((o) =>
          exploreObject(o, 'pred', fractions),
        ),
      ];
      const p = predictionBySample.get(sample.id);
      let prediction: ExploreItem['prediction'] = null;
      if (objectLevel && isPred) {
        const o = own as PredictedObjectRecord;
        prediction = {
          label: o.label,
          score: o.score,
          probabilities: null,
          values: null,
          transcript: null,
          mask_src: null,
        };
      } else if (!objectLevel && p) {
        prediction = samplePrediction(p);
      }
      const other = otherId === undefined ? undefined : otherPredictionBySample.get(sample.id);
      out.push({
        id,
        row,
        data_level: level,
        sample_id: sample.id,
        type: isPred ? 'pred' : 'gt',
        media_type: sample.media_type,
        src: sample.media
          ? `${base}/samples/media?sample_id=${encodeURIComponent(sample.id)}`
          : null,
        thumbnail_src: thumbnail,
        spectrogram_src: audio ? thumbnail : null,
        width,
        height,
        duration: num('audio.duration'),
        crop: own ? fractions(own) : null,
        split: sample.split,
        label: objectLevel ? own!.label : sample.label,
        labels: sample.labels,
        values: valuesRecord(sample.values, valueNames),
        transcript: sample.transcript,
        mask_src: mediaUrl(sample.mask),
        prediction,
        objects: objectList,
        ...(otherId !== undefined
          ? {
              compared_prediction: {
                predictions_id: otherId,
                prediction: !objectLevel && other ? samplePrediction(other) : null,
                objects: (otherObjectsBySample.get(sample.id) ?? []).map((o) =>
                  exploreObject(o, 'pred', fractions),
                ),
              },
            }
          : {}),
        metadata: rowMetadata(explore, row),
        ...(predictionsId && !objectLevel
          ? {
              attributions: Object.fromEntries(
                (attributionsBySample.get(sample.id) ?? []).map(({ name }) => [
                  attributionId(level, name),
                  {
                    name,
                    src: `${base}/predictions/${encodeURIComponent(predictionsId)}/attributions/heatmap?name=${encodeURIComponent(name)}&sample_id=${encodeURIComponent(sample.id)}`,
                  },
                ]),
              ),
            }
          : {}),
      });
    });
    return out;
  }

  async metadataInfo(
    datasetId: string,
    query: MetadataInfoInput,
    actor?: Actor,
  ): Promise<MetadataInfoResponse> {
    const context = await this.context(
      datasetId,
      query.data_level,
      query.predictions_id,
      'query',
      queryComparison(query, actor),
    );
    const { explore, pending } = context;
    const metadata_config = explore.fields.map((field): MetadataFieldInfo => {
      const info: MetadataFieldInfo = {
        id: field.id,
        name: field.name,
        label: field.label,
        description: field.description,
        group: field.group,
        source: field.source,
        state: pending.has(field.id) ? 'pending' : 'available',
        type: field.type,
      };
      if (info.state === 'pending') return info;
      const stats = fieldStats(explore, field.id);
      info.num_missing = stats.num_missing;
      info.num_total = stats.num_total;
      const options: NonNullable<MetadataFieldInfo['options']> = {};
      if (stats.min !== undefined) options.min = stats.min;
      if (stats.max !== undefined) options.max = stats.max;
      if (stats.allowed_values) options.allowed_values = stats.allowed_values;
      if (Object.keys(options).length > 0) info.options = options;
      return info;
    });
    return { metadata_config };
  }

  async histogram(
    datasetId: string,
    input: HistogramInput,
    actor?: Actor,
  ): Promise<HistogramResponse> {
    const context = await this.context(
      datasetId,
      input.data_level,
      input.predictions_id,
      'body',
      bodyComparison(input.comparison, actor),
    );
    const subset = await this.subset(context, input.subset_id);
    this.checkField(context, input.metadata_id, 'body.metadata_id');
    const rows = within(await this.filterRows(context, input.filter, 'body.filter'), subset);
    return histogram(context.explore.table, input.metadata_id, {
      rows,
      max_num_bins: input.max_num_bins,
    });
  }

  async colorMap(datasetId: string): Promise<ColorMapResponse> {
    const dataset = await this.repos.datasets.find(datasetId);
    if (!dataset) throw new NotFound(`No dataset with id ${datasetId}.`);
    // Regression and speech recognition have no classes (the web app skips the call).
    if (!TASK_TRAITS[dataset.task_type].hasClassNames) return { color_map: {} };
    return { color_map: categoricalColorMap(dataset.class_names) };
  }

  /**
   * The colours of a field's values for the map's legend: the rule the grid colours with
   * (fieldColorScale), fed the same facts as the grid's metadata info (range and allowed values
   * over the whole table, never a filter's) and the dataset's classes. Null for an unknown field.
   */
  fieldColors(
    view: { dataset: DatasetRecord; explore: ExploreTable },
    fieldId: string,
  ): { field: ColorField; colorOf: (value: unknown) => string | null } | null {
    const column = view.explore.table.columns.get(fieldId);
    if (!column) return null;
    const stats = fieldStats(view.explore, fieldId);
    const field: ColorField = {
      id: fieldId,
      type: column.type,
      options: { min: stats.min, max: stats.max, allowed_values: stats.allowed_values },
    };
    return { field, colorOf: fieldColorScale(field, { class_names: view.dataset.class_names }) };
  }

  async itemFeatures(
    datasetId: string,
    input: { data_level: DataLevel; item_ids: string[] },
  ): Promise<ItemFeaturesResponse> {
    const dataset = await this.repos.datasets.find(datasetId);
    if (!dataset) throw new NotFound(`No dataset with id ${datasetId}.`);
    const task = dataset.task_type;
    if (!DATA_LEVELS[task].includes(input.data_level))
      throw new BadRequest(
        `body.data_level: a ${task} dataset has no ${input.data_level} level (it has ${DATA_LEVELS[task].join(', ')}).`,
      );
    const ids = [...new Set(input.item_ids)];
    const features = (await this.repos.features.list(datasetId)).filter(
      (f) => f.data_level === input.data_level,
    );
    const present = await this.repos.explore.countVectorsAmong(datasetId, input.data_level, ids);
    return {
      features: features.map((f) => ({
        feature_name: f.name,
        num_missing: ids.length - (present.get(f.name) ?? 0),
      })),
    };
  }
}

/** A filter's rows (null: all) kept to a subset's; the cached subset bits are never written. */
function within(filterRows: Bitset | null, subset: SubsetRows | null): Bitset | null {
  if (!subset) return filterRows;
  if (!filterRows) return subset.bits;
  for (let w = 0; w < filterRows.length; w++) filterRows[w]! &= subset.bits[w]!;
  return filterRows;
}

function groupBy<T>(values: T[], key: (value: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const value of values) {
    const k = key(value);
    const list = out.get(k);
    if (list) list.push(value);
    else out.set(k, [value]);
  }
  return out;
}

function exploreObject(
  o: ObjectRecord | PredictedObjectRecord,
  type: 'gt' | 'pred',
  fractions: (o: ObjectRecord | PredictedObjectRecord) => ExploreObject['coords'],
): ExploreObject {
  const mask = o.segmentation as ExploreObject['mask'] | null;
  return {
    id: type === 'pred' ? PREDICTED_OBJECT_PREFIX + o.id : o.id,
    label: o.label,
    type,
    ...('score' in o ? { score: o.score } : {}),
    coords: fractions(o),
    ...(mask ? { mask } : {}),
  };
}

function probabilitiesRecord(
  parsed: PredictionRecord['probabilities'],
  classNames: string[],
): Record<string, number> | null {
  if (!parsed) return null;
  if (Array.isArray(parsed)) return Object.fromEntries(classNames.map((c, i) => [c, parsed[i]!]));
  return parsed;
}

function valuesRecord(
  parsed: NumericValues | null,
  names: string[],
): Record<string, number> | null {
  if (!parsed) return null;
  if (Array.isArray(parsed)) return Object.fromEntries(names.map((n, i) => [n, parsed[i]!]));
  return parsed;
}

/** Every field's value of one row, as the metadata of an item. */
function rowMetadata(explore: ExploreTable, row: number): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  for (const field of explore.fields) {
    const column = explore.table.columns.get(field.id);
    if (!column) continue;
    if ('values' in column) {
      const v = column.values[row]!;
      out[field.id] = Number.isNaN(v) ? null : v;
    } else {
      const code = column.codes[row]!;
      out[field.id] =
        code < 0 ? null : field.type === 'boolean' ? code === 1 : column.categories[code]!;
    }
  }
  return out;
}

/** Missing count, range and (for strings with few values) the values of one field, cached. */
function fieldStats(explore: ExploreTable, id: string): FieldStats {
  const cached = explore.stats.get(id);
  if (cached) return cached;
  const column = explore.table.columns.get(id)!;
  const n = explore.table.length;
  const stats: FieldStats = { num_missing: 0, num_total: n };
  if ('values' in column) {
    let min = Infinity;
    let max = -Infinity;
    let missing = 0;
    const values = column.values;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      if (v !== v) missing++;
      else {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    stats.num_missing = missing;
    if (Number.isFinite(min)) stats.min = min;
    if (Number.isFinite(max)) stats.max = max;
  } else {
    const seen = new Uint8Array(column.categories.length);
    let missing = 0;
    for (let i = 0; i < n; i++) {
      const code = column.codes[i]!;
      if (code < 0) missing++;
      else seen[code] = 1;
    }
    stats.num_missing = missing;
    if (column.type === 'string') {
      const values = column.categories.filter((_, k) => seen[k] === 1);
      if (values.length <= MAX_ALLOWED_VALUES) stats.allowed_values = values;
    }
  }
  explore.stats.set(id, stats);
  return stats;
}
