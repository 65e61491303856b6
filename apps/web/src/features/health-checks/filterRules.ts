// The minimal filter builder of 'Add health check' and of filter params: conditions on metadata
// fields, all of which must hold (an 'and' of the explorer's filter kinds, docs/web.md "Filter").
import type { Filter, MetadataFieldInfo } from '@loupe/contracts';

export type Condition =
  | { fieldId: null }
  | { fieldId: string; type: 'boolean'; value: boolean | null }
  | { fieldId: string; type: 'numeric'; from: number | null; to: number | null }
  | { fieldId: string; type: 'string'; values: string[] };

/** A new condition on a field, empty until the user gives its value. */
export function conditionFor(field: MetadataFieldInfo): Condition {
  if (field.type === 'boolean') return { fieldId: field.id, type: 'boolean', value: null };
  if (field.type === 'numeric') return { fieldId: field.id, type: 'numeric', from: null, to: null };
  return { fieldId: field.id, type: 'string', values: [] };
}

/** The fields a condition can be on: every available boolean, number and string field. */
export function filterableFields(fields: readonly MetadataFieldInfo[]): MetadataFieldInfo[] {
  return fields.filter(
    (field) =>
      field.state === 'available' &&
      (field.type === 'boolean' || field.type === 'numeric' || field.type === 'string'),
  );
}

function toFilter(condition: Condition): Filter | null {
  if (condition.fieldId === null) return null;
  switch (condition.type) {
    case 'boolean':
      return condition.value === null
        ? null
        : {
            type: 'boolean',
            metadata_id: condition.fieldId,
            op: 'bool_equals',
            value: condition.value,
          };
    case 'numeric':
      if (condition.from === null && condition.to === null) return null;
      if (condition.from !== null && condition.to !== null && condition.from > condition.to)
        return null;
      return {
        type: 'numeric',
        metadata_id: condition.fieldId,
        op: 'between',
        value: [condition.from, condition.to],
      };
    case 'string':
      return condition.values.length === 0
        ? null
        : { type: 'string', metadata_id: condition.fieldId, op: 'in', value: condition.values };
  }
}

/** The filter of the conditions, or null while any is incomplete or there is none. */
export function conditionsFilter(conditions: readonly Condition[]): Filter | null {
  if (conditions.length === 0) return null;
  const children = conditions.map(toFilter);
  if (children.some((child) => child === null)) return null;
  return { type: 'and', children: children as Filter[] };
}

/** Conditions from a filter this builder wrote (an 'and' of simple filters); others start empty. */
export function conditionsOf(filter: Filter | null): Condition[] {
  if (!filter || filter.type !== 'and') return [];
  const out: Condition[] = [];
  for (const child of filter.children) {
    if (child.type === 'boolean')
      out.push({ fieldId: child.metadata_id, type: 'boolean', value: child.value });
    else if (child.type === 'numeric')
      out.push({
        fieldId: child.metadata_id,
        type: 'numeric',
        from: child.value[0],
        to: child.value[1],
      });
    else if (child.type === 'string')
      out.push({ fieldId: child.metadata_id, type: 'string', values: [...child.value] });
    else return [];
  }
  return out;
}
