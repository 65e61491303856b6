// The JSON body parser: an empty body is "no body", and a body nested deeper, or with a larger
// object, than any API call needs is refused by a cheap scan before JSON.parse, so no later
// recursion can exhaust the stack and JSON.parse never meets an object it is slow on.
import type { FastifyInstance } from 'fastify';
import { BadRequest } from '../platform/errors.js';

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
const COMMA = 0x2c;

/**
 * Most members one JSON object in a body may have. JSON.parse slows down sharply on objects with
 * very many keys (a million took 1.6 s here, 100,000 took 50 ms), and no call needs more: the
 * largest is a feature upload's `vectors`, sent in parts of at most about 123,000 ids.
 */
export const JSON_MAX_OBJECT_MEMBERS = 200_000;

/** What is wrong with the shape of a JSON body before it is parsed, if anything. */
export type JsonShapeProblem = 'too deep' | 'too many members';

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth`, or has an object with more
 * than `maxMembers` members; text inside strings is skipped. One pass over the characters,
 * whatever the text holds: a regular expression for strings backtracks quadratically over an
 * unterminated string of escaped quotes, and this runs on anyone's body before JSON.parse.
 */
export function jsonShapeProblem(
  text: string,
  maxDepth: number,
  maxMembers = Infinity,
): JsonShapeProblem | undefined {
  // Per open container: whether it is an object, and the commas seen directly inside it.
  const isObject = new Uint8Array(maxDepth + 2);
  const commas = new Float64Array(maxDepth + 2);
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
      if (++depth > maxDepth) return 'too deep';
      isObject[depth] = c === OPEN_OBJECT ? 1 : 0;
      commas[depth] = 0;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth > 0) depth--;
    } else if (c === COMMA && depth > 0 && isObject[depth] === 1) {
      if (++commas[depth]! >= maxMembers) return 'too many members';
    }
  }
  return undefined;
}

/** Whether JSON text nests arrays and objects deeper than `limit`. */
export function nestedDeeperThan(text: string, limit: number): boolean {
  return jsonShapeProblem(text, limit) === 'too deep';
}

export function registerJsonParser(app: FastifyInstance): void {
  // An empty JSON body is "no body", so bodiless POSTs with a JSON content type still work.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    const problem = jsonShapeProblem(text, JSON_MAX_DEPTH, JSON_MAX_OBJECT_MEMBERS);
    if (problem)
      return done(
        new BadRequest(
          problem === 'too deep'
            ? `The request body nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep.`
            : `The request body has an object with more than ${JSON_MAX_OBJECT_MEMBERS.toLocaleString('en-US')} members.`,
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
