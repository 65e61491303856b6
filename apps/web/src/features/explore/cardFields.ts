// Which metadata fields the cards show (docs/product.md, Datasets §2, §4): the card toggles
// resolved against the level's fields, with the label and split built in when no field carries
// them, and the card-config list offered in the page header.
import type { MetadataFieldInfo } from '@loupe/contracts';

/** Card values the grid can show without a metadata field for them. */
export const BUILTIN_FIELDS: Record<string, MetadataFieldInfo> = {
  label: builtin('label', 'Label'),
  split: builtin('split', 'Split'),
};

/** The label is 'label' at sample level and 'object.label' at object level: one card toggle. */
const LABEL_ALIASES: Record<string, string[]> = {
  label: ['label', 'object.label'],
  'object.label': ['object.label', 'label'],
};

function builtin(id: string, label: string): MetadataFieldInfo {
  return {
    id,
    name: id,
    label,
    description: '',
    group: 'Card config',
    source: 'builtin',
    state: 'available',
    type: 'string',
  };
}

function resolveField(
  id: string,
  fieldById: ReadonlyMap<string, MetadataFieldInfo>,
): MetadataFieldInfo | undefined {
  for (const alias of LABEL_ALIASES[id] ?? [id]) {
    const field = fieldById.get(alias);
    if (field) return field;
  }
  return BUILTIN_FIELDS[id];
}

/** The fields the cards show, in toggle order, each once; unknown toggles are left out. */
export function cardFieldsFor(
  toggles: readonly string[],
  fieldById: ReadonlyMap<string, MetadataFieldInfo>,
): MetadataFieldInfo[] {
  const resolved = toggles
    .map((id) => resolveField(id, fieldById))
    .filter((field): field is MetadataFieldInfo => field !== undefined);
  return resolved.filter((field, i) => resolved.findIndex((f) => f.id === field.id) === i);
}

/** What card config offers: the built-in values no field carries, then every field. */
export function cardConfigFieldsFor(
  fields: readonly MetadataFieldInfo[],
  fieldById: ReadonlyMap<string, MetadataFieldInfo>,
): MetadataFieldInfo[] {
  const extra = Object.values(BUILTIN_FIELDS).filter(
    (field) =>
      !LABEL_ALIASES[field.id]?.some((id) => fieldById.has(id)) && !fieldById.has(field.id),
  );
  return [...extra, ...fields];
}
