// Metadata values as the viewer's sidebar shows them, and its fields grouped for display:
// the 'Card config' group (fields shown on grid cards) first, then the others by group name.
import type { MetadataFieldInfo, MetadataValue } from '@loupe/contracts';

export const CARD_CONFIG_GROUP = 'Card config';

/** Numbers with at most 3 decimals, timestamps as dates, booleans as words, missing as '—'. */
export function formatMetadataValue(
  value: MetadataValue | undefined,
  type: MetadataFieldInfo['type'] | undefined,
): string {
  if (value === null || value === undefined || value === '') return '—';
  if (type === 'timestamp') {
    const date = new Date(typeof value === 'number' ? value : String(value));
    return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value);
    return Number.isInteger(value)
      ? value.toLocaleString()
      : value.toLocaleString(undefined, { maximumFractionDigits: 3 });
  }
  return value;
}

export interface MetadataRow {
  id: string;
  label: string;
  value: string;
}

export interface MetadataGroup {
  name: string;
  rows: MetadataRow[];
}

/** Groups the item's metadata for the sidebar; `search` matches label, id or shown value. */
export function groupMetadata(
  fields: readonly MetadataFieldInfo[],
  values: Record<string, MetadataValue>,
  cardConfigIds: readonly string[] = [],
  search = '',
): MetadataGroup[] {
  const term = search.trim().toLowerCase();
  const byId = new Map(fields.map((field) => [field.id, field]));
  const row = (field: MetadataFieldInfo): MetadataRow => ({
    id: field.id,
    label: field.label || field.name,
    value: formatMetadataValue(values[field.id], field.type),
  });
  const matches = (r: MetadataRow) =>
    !term ||
    r.label.toLowerCase().includes(term) ||
    r.id.toLowerCase().includes(term) ||
    r.value.toLowerCase().includes(term);

  const groups: MetadataGroup[] = [];
  const card = cardConfigIds
    .map((id) => byId.get(id))
    .filter((field): field is MetadataFieldInfo => field !== undefined)
    .map(row)
    .filter(matches);
  if (card.length > 0) groups.push({ name: CARD_CONFIG_GROUP, rows: card });

  const others = new Map<string, MetadataRow[]>();
  for (const field of fields) {
    const r = row(field);
    if (!matches(r)) continue;
    const list = others.get(field.group) ?? [];
    list.push(r);
    others.set(field.group, list);
  }
  for (const name of [...others.keys()].sort((a, b) => a.localeCompare(b))) {
    groups.push({ name, rows: others.get(name)! });
  }
  return groups;
}
