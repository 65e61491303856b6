// A metadata value of an item by field id: the item's metadata, with label, split and the
// prediction's score as built-in fields when the metadata does not carry them.
import type { ExploreItem, MetadataValue } from '@loupe/contracts';

export function itemValue(item: ExploreItem, fieldId: string): MetadataValue | undefined {
  if (fieldId in item.metadata) return item.metadata[fieldId];
  switch (fieldId) {
    case 'label':
      return item.label ?? item.labels?.join(', ') ?? undefined;
    case 'split':
      return item.split ?? undefined;
    case 'score':
      return item.prediction?.score ?? undefined;
    default:
      return undefined;
  }
}

export function formatValue(value: MetadataValue, type?: string): string {
  if (value === null) return '—';
  if (typeof value === 'number') {
    if (type === 'timestamp') return new Date(value).toLocaleString();
    return Number.isInteger(value) ? value.toLocaleString() : value.toFixed(3);
  }
  return String(value);
}
