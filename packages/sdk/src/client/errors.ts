// The error every failed call raises: the server's description, whether retrying may help, and
// for rejected batches each bad row and field.
import type { RowError } from '@loupe/contracts';

export class LoupeError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly retriable: boolean,
    readonly errors: RowError[] = [],
    readonly url = '',
  ) {
    const rows = errors
      .slice(0, 5)
      .map((e) => `\n  row ${e.row}${e.id ? ` (id ${e.id})` : ''}, ${e.field}: ${e.message}`)
      .join('');
    super(`${description}${rows}${errors.length > 5 ? `\n  … and ${errors.length - 5} more` : ''}`);
    this.name = 'LoupeError';
  }
}
