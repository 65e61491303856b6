// Arrays with a size limit that cannot be turned against the server: the length is checked on the
// raw value before any item, and a huge array of wrong items costs one cheap pass, not an issue each.
import { z } from 'zod';
import * as core from 'zod/v4/core';

/** Item problems an array reports one by one; past these it reports how many more there are. */
export const ITEM_ISSUES_LISTED = 20;

/** A custom issue that stands for `params.more` further problems of the same array. */
export interface MoreIssuesParams {
  more: number;
}

type Payload = core.ParsePayload<unknown>;
type Context = core.ParseContextInternal;

const ZodBoundedArray = core.$constructor(
  'ZodBoundedArray',
  (inst: z.ZodArray, def: core.$ZodArrayDef) => {
    z.ZodArray.init(inst, def);
    // zod's own parse, which refuses an over-long array by its length before reading any item.
    const parse = inst._zod.parse;
    inst._zod.parse = (payload: Payload, ctx: Context) => {
      const input = payload.value;
      // Well-formed input passes this one run; a bad one stops at its first problem.
      const first = parse({ value: input, issues: [] }, { ...ctx, abortEarly: true }) as Payload;
      const arrayLevel = first.issues.some((issue) => !issue.path?.length);
      if (first.issues.length === 0 || arrayLevel || !Array.isArray(input)) {
        payload.value = first.value;
        payload.issues.push(...first.issues);
        return payload;
      }
      // Some items are wrong: list the first ones and count the rest without keeping their issues.
      const value: unknown[] = new Array(input.length);
      let wrong = 0;
      for (let i = 0; i < input.length; i++) {
        const item = def.element._zod.run({ value: input[i], issues: [] }, ctx) as Payload;
        value[i] = item.value;
        if (item.issues.length === 0) continue;
        wrong++;
        if (wrong <= ITEM_ISSUES_LISTED)
          payload.issues.push(...core.util.prefixIssues(i, item.issues));
      }
      if (wrong > ITEM_ISSUES_LISTED) {
        const more = wrong - ITEM_ISSUES_LISTED;
        payload.issues.push({
          code: 'custom',
          input,
          message: `… and ${more.toLocaleString('en-US')} more invalid items`,
          params: { more } satisfies MoreIssuesParams,
        });
      }
      payload.value = value;
      return payload;
    };
  },
);

/**
 * `z.array(item).max(max, message)` whose length is checked before its items and whose wrong
 * items are listed up to ITEM_ISSUES_LISTED, then counted. Every array a client sends is one.
 */
export function boundedArray<T extends core.$ZodType>(
  item: T,
  max: number,
  message = `at most ${max.toLocaleString('en-US')} items`,
): z.ZodArray<T> {
  const array = core._array(
    ZodBoundedArray as unknown as core.util.SchemaClass<core.$ZodArray>,
    item,
  ) as unknown as z.ZodArray<T>;
  return array.max(max, message);
}
