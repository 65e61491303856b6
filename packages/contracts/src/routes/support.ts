// The support bundle download: a JSON body, or an HTML form post with a client_state field.
import { SupportBundleRequest } from '../settings.js';
import { defineRoute, raw } from './define.js';

export const support = {
  bundle: defineRoute({
    method: 'POST',
    path: '/api/support/bundle',
    body: SupportBundleRequest.optional(),
    responses: raw('application/zip'),
    errors: [],
    auth: 'user',
    license: false,
    summary: 'Download a support bundle (zip)',
    tags: ['support'],
  }),
};
