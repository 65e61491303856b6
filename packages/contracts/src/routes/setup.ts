// First-run setup: the company and the first admin, once.
import { SessionResponse, SetupRequest } from '../auth.js';
import { defineRoute } from './define.js';

export const setup = {
  complete: defineRoute({
    method: 'POST',
    path: '/api/setup',
    body: SetupRequest,
    responses: { 201: SessionResponse },
    errors: [400, 409],
    auth: 'public',
    license: false,
    summary: 'Complete first-run setup: the company and the first admin (only while INITIAL)',
    tags: ['setup'],
  }),
};
