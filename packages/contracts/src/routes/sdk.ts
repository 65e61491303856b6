// The Python SDK served by the instance itself: a PEP 503 simple index and the wheel, read by
// pip (not JSON, so left out of the OpenAPI document).
import { SdkFileParams } from '../settings.js';
import { defineRoute, raw } from './define.js';

const common = {
  errors: [404],
  auth: 'public',
  license: false,
  tags: ['sdk'],
  hidden: true,
} as const;

export const sdk = {
  pythonIndex: defineRoute({
    ...common,
    method: 'GET',
    path: '/sdk/python/simple/',
    responses: raw('text/html'),
    summary: 'The simple index of the Python SDK',
  }),
  pythonPackage: defineRoute({
    ...common,
    method: 'GET',
    path: '/sdk/python/simple/loupe/',
    responses: raw('text/html'),
    summary: 'The files of the loupe package, with their sha256',
  }),
  pythonFile: defineRoute({
    ...common,
    method: 'GET',
    path: '/sdk/python/files/:filename',
    params: SdkFileParams,
    responses: raw('application/octet-stream'),
    summary: 'The wheel of the Python SDK',
  }),
};
