// The JSON body parser: an empty body is "no body", and a body nested deeper than any API call
// needs is refused by a cheap scan before JSON.parse, so no later recursion can exhaust the stack.
import type { FastifyInstance } from 'fastify';
import { BadRequest } from './errors.js';

/**
 * Deepest nesting of arrays and objects a JSON body may have. Generous for every call (a filter
 * at its own limit of 32 and/or levels is about 66 deep) and far from what recursion survives.
 */
export const JSON_MAX_DEPTH = 128;

// A whole string (skipped) or one bracket. The string pattern has no per-character alternation,
// so even a string of many megabytes is matched without deep backtracking.
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|[[\]{}]/g;

/** Whether JSON text nests arrays and objects deeper than `limit`; text inside strings is skipped. */
export function nestedDeeperThan(text: string, limit: number): boolean {
  const tokens = new RegExp(TOKENS);
  let depth = 0;
  for (let match = tokens.exec(text); match; match = tokens.exec(text)) {
    const c = match[0][0];
    if (c === '[' || c === '{') {
      if (++depth > limit) return true;
    } else if (c !== '"') depth--;
  }
  return false;
}

export function registerJsonParser(app: FastifyInstance): void {
  // An empty JSON body is "no body", so bodiless POSTs with a JSON content type still work.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    if (nestedDeeperThan(text, JSON_MAX_DEPTH))
      return done(
        new BadRequest(
          `The request body nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep.`,
        ),
        undefined,
      );
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      const syntax = new SyntaxError((error as Error).message);
      done(syntax, undefined);
    }
  });
}
