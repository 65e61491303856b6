// The sort rules of docs/product.md, Datasets §4: a quick choice sets, replaces or clears a single sort;
// the multi-sort editor adds (descending), changes, reorders and removes entries.
import type { SortEntry } from '@loupe/contracts';

/** Choosing a property in the quick sort menu. */
export function chooseSort(current: SortEntry[], name: string): SortEntry[] {
  if (current.length === 0) return [{ name, direction: 'ascending' }];
  if (current.length === 1 && current[0]!.name === name) return [];
  // Replaces what is there with the chosen property, keeping the (first) sort's direction.
  return [{ name, direction: current[0]!.direction }];
}

/** Properties not yet sorted by, in the order offered. */
export function unusedProperties(current: SortEntry[], properties: string[]): string[] {
  const used = new Set(current.map((entry) => entry.name));
  return properties.filter((name) => !used.has(name));
}

/** Multi-add is offered only while unused properties remain. */
export function canAddSort(current: SortEntry[], properties: string[]): boolean {
  return unusedProperties(current, properties).length > 0;
}

/** Adds the first unused property, descending (sorts added in the editor default to descending). */
export function addSort(current: SortEntry[], properties: string[]): SortEntry[] {
  const [name] = unusedProperties(current, properties);
  if (name === undefined) return current;
  return [...current, { name, direction: 'descending' }];
}

export function changeSortProperty(current: SortEntry[], index: number, name: string): SortEntry[] {
  if (current.some((entry, i) => i !== index && entry.name === name)) return current;
  return current.map((entry, i) => (i === index ? { ...entry, name } : entry));
}

export function changeSortDirection(
  current: SortEntry[],
  index: number,
  direction: SortEntry['direction'],
): SortEntry[] {
  return current.map((entry, i) => (i === index ? { ...entry, direction } : entry));
}

export function removeSort(current: SortEntry[], index: number): SortEntry[] {
  return current.filter((_, i) => i !== index);
}

export function moveSort(current: SortEntry[], from: number, to: number): SortEntry[] {
  if (from === to || from < 0 || to < 0 || from >= current.length || to >= current.length) {
    return current;
  }
  const next = [...current];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}
