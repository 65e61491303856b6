// Comparing two models (docs/model-comparison.md): the job-computed comparison of two prediction
// sets of a dataset on one split and metric, which the page polls while status is 'computing',
// and the comparison of the subsets enabled for performance. Adding a model to compare needs a
// license.
import {
  ComparisonRequest,
  ComparisonResponse,
  SubsetsComparisonQuery,
  SubsetsComparisonResponse,
} from '../comparison.js';
import { DatasetIdParams } from '../datasets.js';
import { defineRoute } from './define.js';

const common = { auth: 'user', tags: ['models'] } as const;

export const comparison = {
  compare: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/comparison',
    params: DatasetIdParams,
    body: ComparisonRequest,
    responses: { 200: ComparisonResponse },
    errors: [400, 401, 403, 404],
    license: true,
    summary:
      'Compare two models on one split and metric; starts computing it when missing or stale',
  }),
  subsets: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/comparison/subsets',
    params: DatasetIdParams,
    query: SubsetsComparisonQuery,
    responses: { 200: SubsetsComparisonResponse },
    errors: [400, 401, 403, 404],
    license: true,
    summary: 'Both models on each subset enabled for performance, in one split',
  }),
};
