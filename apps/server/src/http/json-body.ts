// The JSON body parser: an empty body is "no body", and a body nested deeper than any API call
// needs is refused by a cheap scan before JSON.parse, so no later recursion can exhaust the stack.
import type { FastifyInstance } from 'fastify';
import { BadRequest } from './errors.js';

/**
 * Deepest nesting of arrays and objects a JSON body may have. Generous for every call (a filter
 * at its own limit of 32 and/or levels is about 66 deep) and far from what recursion survives.
 */
export const JSON_MAX_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`; text inside strings is skipped.
 * One pass over the characters, whatever the text holds: a regular expression for strings
 * backtracks quadratically over an unterminated string of escaped quotes, and this runs on
 * anyone's body before JSON.parse has refused it.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip to the closing quote; a backslash escapes the character after it.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
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
