// JSON text columns, read and written only by repositories: above them values are decoded.
/** The value a JSON column holds; null for NULL or text that is not JSON. */
export function readJson<T>(text: string | null): T | null {
  if (text === null || text === '') return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The text a JSON column stores for a value; NULL for null or undefined. */
export function writeJson(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
