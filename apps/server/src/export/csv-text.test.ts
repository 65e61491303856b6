// The threads of a CSV export's rows hand the writer back its place when they cannot go on: a
// database they cannot open leaves every page to the main thread.
import { describe, expect, it } from 'vitest';
import { CsvTextSource } from './csv-text.js';

describe('CsvTextSource', () => {
  it('makes no page and resumes at the start when its threads cannot open the database', async () => {
    const source = new CsvTextSource({
      datasetId: 'd',
      subsetId: 's',
      truth: 'label',
      valueNames: [],
      metadata: [],
      mediaFolder: 'images',
      includeMedia: true,
      after: 'a.jpg',
      pages: {
        file: '/nonexistent/loupe.db',
        page: async (after: string) => ({ scanned: after < 'z' ? 2 : 0, last: `${after}z` }),
      },
      pageSize: 2,
    });
    const pages = [];
    for await (const page of source.pages()) pages.push(page);
    expect(pages).toEqual([]);
    expect(await source.resumeAfter()).toBe('a.jpg');
  });
});
