// The shared errors live in platform/errors.ts; routes files written before the move import them
// from here.
export * from '../platform/errors.js';
