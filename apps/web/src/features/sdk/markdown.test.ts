// The Markdown reader behind the read-only SDK documentation, on the constructs the page uses and
// on the page itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { inline, parseMarkdown, slug } from './markdown';

test('headings carry GitHub-style anchors', () => {
  const [heading] = parseMarkdown('#### `upload_samples(samples, batch_size=1000)`');
  expect(heading).toMatchObject({
    type: 'heading',
    level: 4,
    text: 'upload_samples(samples, batch_size=1000)',
  });
  expect(slug('Errors and retries')).toBe('errors-and-retries');
  expect(heading && heading.type === 'heading' && heading.id.startsWith('upload_samples')).toBe(
    true,
  );
});

test('code spans keep their text; bold and links are read outside them', () => {
  expect(inline('see [formats.md](formats.md#csv) and **not** `a [b](c) **d**`')).toEqual([
    { type: 'text', text: 'see ' },
    { type: 'link', text: 'formats.md', href: 'formats.md#csv' },
    { type: 'text', text: ' and ' },
    { type: 'strong', text: 'not' },
    { type: 'text', text: ' ' },
    { type: 'code', text: 'a [b](c) **d**' },
  ]);
  expect(inline('an unclosed `tick')).toEqual([{ type: 'text', text: 'an unclosed `tick' }]);
});

test('fenced code, lists with continuation lines, tables with escaped pipes, paragraphs', () => {
  const blocks = parseMarkdown(
    [
      'First line',
      'same paragraph.',
      '',
      '```python',
      'import loupe',
      '',
      'client = loupe.Client()',
      '```',
      '- one',
      '  continued',
      '- two',
      '',
      '| Field | Value |',
      '|---|---|',
      '| `state` | `LICENSED \\| EXPIRED` |',
    ].join('\n'),
  );
  expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'code', 'list', 'table']);
  expect(blocks[0]).toEqual({
    type: 'paragraph',
    inline: [{ type: 'text', text: 'First line same paragraph.' }],
  });
  expect(blocks[1]).toEqual({
    type: 'code',
    lang: 'python',
    text: 'import loupe\n\nclient = loupe.Client()',
  });
  expect(blocks[2]).toEqual({
    type: 'list',
    items: [[{ type: 'text', text: 'one continued' }], [{ type: 'text', text: 'two' }]],
  });
  expect(blocks[3]).toEqual({
    type: 'table',
    header: [[{ type: 'text', text: 'Field' }], [{ type: 'text', text: 'Value' }]],
    rows: [[[{ type: 'code', text: 'state' }], [{ type: 'code', text: 'LICENSED | EXPIRED' }]]],
  });
});

test('docs/sdk-python.md reads into sections for every method a snippet points to', () => {
  const source = readFileSync(
    join(import.meta.dirname, '../../../../../docs/sdk-python.md'),
    'utf8',
  );
  const blocks = parseMarkdown(source);
  const ids = blocks.flatMap((block) => (block.type === 'heading' ? [block.id] : []));
  for (const section of ['upload_samples', 'upload_predictions', 'upload_features'])
    expect(
      ids.some((id) => id.startsWith(section)),
      section,
    ).toBe(true);
  expect(ids).toContain('errors-and-retries');
  // The field table of upload_samples lists every task's fields.
  const fields = blocks.find(
    (block) => block.type === 'table' && block.header.some((cell) => cell[0]?.text === 'Field'),
  );
  expect(fields && fields.type === 'table' && fields.rows.length).toBeGreaterThanOrEqual(8);
  // Every fence is closed: no code block swallowed the rest of the page.
  expect(
    blocks.filter((block) => block.type === 'code').every((block) => !block.text.includes('\n## ')),
  ).toBe(true);
});
