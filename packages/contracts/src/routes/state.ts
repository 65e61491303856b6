// Application state and health: what every client reads first.
import { AppState, Health } from '../settings.js';
import { defineRoute } from './define.js';

const tags = ['state'];

export const state = {
  get: defineRoute({
    method: 'GET',
    path: '/api/state',
    responses: { 200: AppState },
    errors: [],
    auth: 'public',
    license: false,
    summary: 'Application state, read on start',
    tags,
  }),
  health: defineRoute({
    method: 'GET',
    path: '/api/health',
    responses: { 200: Health },
    errors: [424],
    auth: 'public',
    license: false,
    summary: 'Liveness and database reachability',
    tags,
  }),
};
