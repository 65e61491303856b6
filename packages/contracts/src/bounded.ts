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

interface BoundedRecordDef extends core.$ZodRecordDef {
  maxKeys: number;
  maxKeysMessage: string;
}

const ZodBoundedRecord = core.$constructor(
  'ZodBoundedRecord',
  (inst: z.ZodRecord, def: BoundedRecordDef) => {
    z.ZodRecord.init(inst, def);
    const parse = inst._zod.parse;
    inst._zod.parse = (payload: Payload, ctx: Context) => {
      const input = payload.value;
      // Counted before any key or value is read: a wrong value costs a union of issues each.
      if (core.util.isPlainObject(input) && Object.keys(input).length > def.maxKeys) {
        payload.issues.push({
          code: 'too_big',
          origin: 'object',
          maximum: def.maxKeys,
          inclusive: true,
          input,
          inst,
          message: def.maxKeysMessage,
        } as core.$ZodRawIssue);
        return payload;
      }
      return parse(payload, ctx) as Payload;
    };
    const toJson = inst._zod.processJSONSchema;
    inst._zod.processJSONSchema = (jsonCtx, json, params) => {
      toJson?.(jsonCtx, json, params);
      (json as { maxProperties?: number }).maxProperties = def.maxKeys;
    };
  },
);

/**
 * `z.record(key, value)` with at most `maxKeys` keys, counted before any key or value is read, so
 * a record of a million wrong values is refused by its size at once. Every record a client sends
 * is one.
 */
export function boundedRecord<K extends core.$ZodRecordKey, V extends core.$ZodType>(
  key: K,
  value: V,
  maxKeys: number,
  message = `at most ${maxKeys.toLocaleString('en-US')} keys`,
): z.ZodRecord<K, V> {
  return new ZodBoundedRecord({
    type: 'record',
    keyType: key,
    valueType: value,
    maxKeys,
    maxKeysMessage: message,
  } as BoundedRecordDef) as unknown as z.ZodRecord<K, V>;
}
