// Item actions, restore and selection export (docs/curation.md): the writes behind the
// pending-changes queue and the version history. All of them need a license.
import {
  ApplyActionsRequest,
  ApplyActionsResponse,
  ExportSelectionRequest,
  HistoryRecordParams,
  RestoreResponse,
} from '../curation.js';
import { DatasetIdParams } from '../datasets.js';
import { defineRoute, raw } from './define.js';

const common = { auth: 'user', license: true, tags: ['curation'] } as const;

export const curation = {
  applyActions: defineRoute({
    ...common,
    method: 'PUT',
    path: '/api/actions',
    body: ApplyActionsRequest,
    responses: { 200: ApplyActionsResponse },
    errors: [400, 401, 403, 404, 409],
    summary:
      'Apply item actions (relabel, resplit, delete, promote predictions, ignore) in one transaction',
  }),
  restore: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/history/:recordId/restore',
    params: HistoryRecordParams,
    responses: { 200: RestoreResponse },
    errors: [400, 401, 403, 404, 409],
    summary: 'Restore the items a delete record deleted',
  }),
  exportSelection: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/export',
    params: DatasetIdParams,
    body: ExportSelectionRequest,
    responses: raw('application/zip (the COCO or CSV folder layout of docs/formats.md)'),
    errors: [400, 401, 403, 404, 413],
    summary: 'Download chosen items as a COCO or CSV folder (zip, streamed)',
  }),
};
