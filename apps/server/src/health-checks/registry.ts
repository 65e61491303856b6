// The checks a dataset offers (docs/health-checks.md, "The catalogue"): every definition whose
// levels(task) is non-empty, one check per level, with its params (the definition's defaults over
// the dataset's features, classes and splits, the user's values merged by name), plus the
// dataset's custom checks. Definitions come from modules named by URL, so that the checks process
// imports the very same list (functions cannot be posted to it); tests add their own.
import { createHash } from 'node:crypto';
import {
  CHECK_GROUPS,
  CUSTOM_CHECK_KEYS,
  DATA_LEVELS,
  TASK_TRAITS,
  type CheckParam,
  type CheckParamValue,
  type CheckParams,
  type DataLevel,
  type Filter,
} from '@loupe/contracts';
import { DEFAULT_FEATURE } from '../metadata/computed-fields.js';
import { BadRequest } from '../platform/errors.js';
import type { CheckDefinition, CheckFieldSpec, ParamContext } from './catalogue/types.js';
import { importDefinitions, type DefinitionSource } from './definition-sources.js';
import type { HealthCheckRecord } from './health-checks.repository.js';

/** Where the definitions come from; tests replace the sources with their own. */
export class CheckCatalogue {
  constructor(private list: DefinitionSource[]) {}

  get sources(): readonly DefinitionSource[] {
    return this.list;
  }

  use(sources: DefinitionSource[]): void {
    this.list = sources;
  }

  definitions(): Promise<CheckDefinition[]> {
    return importDefinitions(this.list);
  }
}

export const CUSTOM_KEY = CUSTOM_CHECK_KEYS[0];
const CUSTOM_GROUP = 'Custom Checks' as const;

/** A check of a dataset: a definition at one level, or a custom check. */
export interface CheckInstance {
  id: string;
  key: string;
  level: DataLevel;
  type: 'default' | 'custom';
  /** null for a custom check (evaluated through the explorer's filter). */
  definition: CheckDefinition | null;
  name: string;
  group: (typeof CHECK_GROUPS)[number];
  description: string[];
  configDescription: string;
  /** Defaults with the user's values merged. */
  params: CheckParams;
  enabled: boolean;
  needsPredictions: boolean;
  fields: CheckFieldSpec[];
  order: number;
  record: HealthCheckRecord | undefined;
}

export function checkId(key: string, level: DataLevel): string {
  return `${key}.${level}`;
}

/** The custom check's filter param, as stored in its record's params. */
export interface CustomFilterValue {
  filter: Filter | null;
  include_missing: boolean;
  data_level: DataLevel;
}

function customParams(record: HealthCheckRecord, levels: DataLevel[]): CheckParams {
  const value = record.params.filter as CustomFilterValue | undefined;
  return {
    check_name: { type: 'check_name', label: 'Name', value: record.name ?? '' },
    filter: {
      type: 'filter',
      label: 'Filter',
      data_level: value?.data_level ?? (record.level as DataLevel),
      include_missing: value?.include_missing ?? false,
      filter: value?.filter ?? null,
      allowed_data_levels: levels,
    },
  };
}

/** The definition's params with the user's stored values merged by name (unknown names dropped). */
export function mergeParams(defaults: CheckParams, values: Record<string, unknown>): CheckParams {
  const out: CheckParams = {};
  for (const [name, param] of Object.entries(defaults)) {
    const value = values[name];
    out[name] = value === undefined ? param : ({ ...param, value } as CheckParam);
  }
  return out;
}

/** A hash of the param values a check runs with: a change makes its result pending. */
export function paramsHash(params: CheckParams): string {
  const values = Object.keys(params)
    .filter((name) => params[name]!.type !== 'check_name')
    .sort()
    .map((name) => {
      const p = params[name]!;
      return [
        name,
        p.type === 'filter' ? [p.filter, p.include_missing, p.data_level] : (p.value ?? null),
      ];
    });
  return createHash('sha256').update(JSON.stringify(values)).digest('hex');
}

export function instancesOf(
  definitions: readonly CheckDefinition[],
  task: Parameters<CheckDefinition['levels']>[0],
  context: ParamContext,
  records: readonly HealthCheckRecord[],
): CheckInstance[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  const out: CheckInstance[] = [];
  const seen = new Set<string>();
  for (const definition of definitions) {
    for (const level of definition.levels(task)) {
      const id = checkId(definition.key, level);
      if (seen.has(id)) continue;
      seen.add(id);
      const record = byId.get(id);
      out.push({
        id,
        key: definition.key,
        level,
        type: 'default',
        definition,
        name: definition.name(level),
        group: definition.group,
        description: definition.description(level),
        configDescription: definition.configDescription,
        params: mergeParams(definition.params(context), record?.params ?? {}),
        enabled: record?.enabled ?? true,
        needsPredictions: definition.requires.predictions !== undefined,
        fields: definition.fields,
        order: definition.order,
        record,
      });
    }
  }
  const levels = DATA_LEVELS[task];
  for (const record of records) {
    if (record.type !== 'custom') continue;
    out.push({
      id: record.id,
      key: record.key,
      level: record.level as DataLevel,
      type: 'custom',
      definition: null,
      name: record.name ?? record.id,
      group: CUSTOM_GROUP,
      description: ['Items matching the filter fail the check.'],
      configDescription: 'The items matching the filter fail the check.',
      params: customParams(record, levels),
      enabled: record.enabled,
      needsPredictions: false,
      fields: [],
      order: record.created_at,
      record,
    });
  }
  return out;
}

/** The feature the metadata pass computes for the task's media (a check's default feature). */
export function defaultFeatureOf(task: Parameters<CheckDefinition['levels']>[0]): string {
  return DEFAULT_FEATURE[TASK_TRAITS[task].media];
}

/**
 * A configure request's value for a param, checked against the param (type, bounds, categories);
 * answers the value to store. 400 naming the param otherwise.
 */
export function validParamValue(name: string, param: CheckParam, value: CheckParamValue): unknown {
  const where = `body.params.${name}`;
  const fail = (why: string): never => {
    throw new BadRequest(`${where}: ${why}`);
  };
  switch (param.type) {
    case 'boolean':
      if (typeof value !== 'boolean') fail('must be a boolean.');
      return value;
    case 'float':
    case 'int':
    case 'numerical_change': {
      if (typeof value !== 'number' || !Number.isFinite(value)) fail('must be a number.');
      const n = value as number;
      if (param.type === 'int' && !Number.isInteger(n)) fail('must be an integer.');
      if (param.type !== 'numerical_change') {
        if (param.min !== undefined && n < param.min) fail(`must be at least ${param.min}.`);
        if (param.max !== undefined && n > param.max) fail(`must be at most ${param.max}.`);
      }
      return n;
    }
    case 'check_name':
      if (typeof value !== 'string' || value.trim() === '') fail('Name is required.');
      return (value as string).trim();
    case 'categorical': {
      if (value === 'all') {
        if (param.single) fail('choose one category.');
        return value;
      }
      if (!Array.isArray(value)) fail("must be a list of categories or 'all'.");
      const list = value as string[];
      const known = new Set(param.categories);
      const unknown = list.find((c) => !known.has(c));
      if (unknown !== undefined) fail(`unknown category '${unknown}'.`);
      if (param.single && list.length !== 1) fail('choose one category.');
      return [...new Set(list)];
    }
    case 'filter':
      if (
        typeof value !== 'object' ||
        value === null ||
        Array.isArray(value) ||
        !('filter' in value)
      )
        fail('must be a filter with include_missing and data_level.');
      if ((value as CustomFilterValue).filter === null) fail('Filter is required.');
      if (!param.allowed_data_levels.includes((value as CustomFilterValue).data_level))
        fail(`data_level must be one of ${param.allowed_data_levels.join(', ')}.`);
      return value;
  }
}

/** Groups in the list's order, then statuses, then the catalogue's order. */
export const GROUP_ORDER = new Map(CHECK_GROUPS.map((g, i) => [g, i]));
