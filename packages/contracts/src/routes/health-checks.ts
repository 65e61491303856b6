// Data health checks (docs/health-checks.md): the checks of a dataset with their status, one
// check with its evaluation, running them, creating a custom check from a filter, configuring,
// enabling or disabling, and deleting a custom check. Reading is never license-gated; running,
// creating, configuring, enabling and deleting need a license.
import { DatasetIdParams } from '../datasets.js';
import { Ok } from '../errors.js';
import {
  CheckParams,
  CheckResponse,
  CheckSettingsRequest,
  ChecksListResponse,
  ChecksQuery,
  ConfigureCheckRequest,
  CreateCheckRequest,
  CreateCheckResponse,
  RunChecksResponse,
} from '../health-checks.js';
import { defineRoute } from './define.js';

const common = { auth: 'user', tags: ['health checks'] } as const;

export const healthChecks = {
  list: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/checks',
    params: DatasetIdParams,
    query: ChecksQuery,
    responses: { 200: ChecksListResponse },
    errors: [400, 401, 404],
    license: false,
    summary: "The dataset's health checks with their status; poll while any is pending",
  }),
  get: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/checks/:checkId',
    params: CheckParams,
    query: ChecksQuery,
    responses: { 200: CheckResponse },
    errors: [400, 401, 404],
    license: false,
    summary: 'One health check with its evaluation (evidence and recommendation)',
  }),
  run: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/checks/run',
    params: DatasetIdParams,
    responses: { 200: RunChecksResponse },
    errors: [401, 403, 404],
    license: true,
    summary: 'Compute the checks whose inputs changed since they were last computed',
  }),
  create: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/checks',
    params: DatasetIdParams,
    body: CreateCheckRequest,
    responses: { 200: CreateCheckResponse },
    errors: [400, 401, 403, 404, 409],
    license: true,
    summary: 'Create a custom check: the items matching a filter fail it',
  }),
  configure: defineRoute({
    ...common,
    method: 'PUT',
    path: '/api/datasets/:id/checks/:checkId',
    params: CheckParams,
    body: ConfigureCheckRequest,
    responses: { 200: Ok },
    errors: [400, 401, 403, 404, 409],
    license: true,
    summary: "Change a check's params (and a custom check's name or filter); it is computed again",
  }),
  settings: defineRoute({
    ...common,
    method: 'PUT',
    path: '/api/datasets/:id/checks/settings/:checkId',
    params: CheckParams,
    body: CheckSettingsRequest,
    responses: { 200: Ok },
    errors: [400, 401, 403, 404],
    license: true,
    summary: 'Enable or disable a check',
  }),
  remove: defineRoute({
    ...common,
    method: 'DELETE',
    path: '/api/datasets/:id/checks/:checkId',
    params: CheckParams,
    responses: { 200: Ok },
    errors: [400, 401, 403, 404],
    license: true,
    summary: 'Delete a custom check',
  }),
};
