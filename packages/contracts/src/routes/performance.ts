// Model performance (docs/model-performance.md): the job-computed report, curves and subset
// entries of a prediction set, which pages poll while status is 'computing', and the synchronous
// metadata and selection performance. Reading is open to every signed-in user; choosing which
// subsets show performance is a performance toggle and needs a license.
import { SubsetParams, Subset } from '../curation.js';
import { PredictionSetParams } from '../datasets.js';
import {
  FinegrainedPerformanceResponse,
  ItemsSummaryRequest,
  ItemsSummaryResponse,
  MetadataPerformanceRequest,
  MetadataPerformanceResponse,
  OverallPerformanceResponse,
  PerformanceSplitQuery,
  StatisticsResponse,
  SubsetPerformanceToggleRequest,
  SubsetsPerformanceResponse,
} from '../performance.js';
import { defineRoute } from './define.js';

const common = { auth: 'user', tags: ['models'] } as const;
const base = '/api/datasets/:id/predictions/:predictionSetId/performance';

export const performance = {
  statistics: defineRoute({
    ...common,
    method: 'GET',
    path: `${base}/statistics`,
    params: PredictionSetParams,
    responses: { 200: StatisticsResponse },
    errors: [400, 401, 404],
    license: false,
    summary: "A model's statistics per split; starts computing them when missing or stale",
  }),
  overall: defineRoute({
    ...common,
    method: 'GET',
    path: `${base}/overall`,
    params: PredictionSetParams,
    responses: { 200: OverallPerformanceResponse },
    errors: [400, 401, 404],
    license: false,
    summary: "A model's performance per class, word or value name, per split",
  }),
  finegrained: defineRoute({
    ...common,
    method: 'GET',
    path: `${base}/finegrained`,
    params: PredictionSetParams,
    responses: { 200: FinegrainedPerformanceResponse },
    errors: [400, 401, 404],
    license: false,
    summary: 'Precision-recall or ROC curves, or error distributions, per split',
  }),
  subsets: defineRoute({
    ...common,
    method: 'GET',
    path: `${base}/subsets`,
    params: PredictionSetParams,
    query: PerformanceSplitQuery,
    responses: { 200: SubsetsPerformanceResponse },
    errors: [400, 401, 404],
    license: false,
    summary: 'Performance of the subsets enabled for performance, in one split',
  }),
  metadata: defineRoute({
    ...common,
    method: 'POST',
    path: `${base}/metadata`,
    params: PredictionSetParams,
    body: MetadataPerformanceRequest,
    responses: { 200: MetadataPerformanceResponse },
    // 503: the performance thread ran out of time or memory (retriable unless it refused).
    errors: [400, 401, 404, 503],
    license: false,
    summary: 'Metrics per bin of a metadata field and per split',
  }),
  itemsSummary: defineRoute({
    ...common,
    method: 'POST',
    path: `${base}/items_summary`,
    params: PredictionSetParams,
    body: ItemsSummaryRequest,
    responses: { 200: ItemsSummaryResponse },
    errors: [400, 401, 404, 413, 503],
    license: false,
    summary: 'Metrics of a selection, a filter or a subset',
  }),
  toggleSubset: defineRoute({
    ...common,
    method: 'PUT',
    path: '/api/datasets/:id/subsets/:subsetId/performance',
    params: SubsetParams,
    body: SubsetPerformanceToggleRequest,
    responses: { 200: Subset },
    errors: [400, 401, 403, 404],
    license: true,
    summary: "Show or hide a subset's performance, or choose its metric",
  }),
};
