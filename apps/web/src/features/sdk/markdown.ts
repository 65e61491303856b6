// Reads the little Markdown our SDK documentation uses (docs/sdk-python.md), so the instance can
// show it read-only: headings, paragraphs, fenced code, bullet lists and pipe tables, with inline
// code, bold and links. Anything else stays a paragraph of plain text. No HTML is produced: the
// blocks are rendered as React elements.

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; text: string }
  | { type: 'link'; text: string; href: string };

export type Block =
  | { type: 'heading'; level: number; id: string; text: string; inline: Inline[] }
  | { type: 'paragraph'; inline: Inline[] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'list'; items: Inline[][] }
  | { type: 'table'; header: Inline[][]; rows: Inline[][][] };

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to dashes. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** Splits a table row on the pipes that are not escaped (`\|` is a pipe inside a cell). */
function cells(line: string): string[] {
  const out: string[] = [];
  let current = '';
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '\\' && body[i + 1] === '|') {
      current += '|';
      i++;
    } else if (char === '|') {
      out.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  out.push(current.trim());
  return out;
}

const LINK = /\[([^\]]*)\]\(([^)\s]*)\)/g;
const STRONG = /\*\*([^*]+)\*\*/g;

/** Bold and links in a stretch of text without code. */
function richText(text: string): Inline[] {
  const out: Inline[] = [];
  const matches = [
    ...[...text.matchAll(LINK)].map((m) => ({ m, kind: 'link' as const })),
    ...[...text.matchAll(STRONG)].map((m) => ({ m, kind: 'strong' as const })),
  ].sort((a, b) => a.m.index - b.m.index);
  let at = 0;
  for (const { m, kind } of matches) {
    if (m.index < at) continue; // overlapping: the earlier one wins
    if (m.index > at) out.push({ type: 'text', text: text.slice(at, m.index) });
    out.push(
      kind === 'link'
        ? { type: 'link', text: m[1]!, href: m[2]! }
        : { type: 'strong', text: m[1]! },
    );
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ type: 'text', text: text.slice(at) });
  return out;
}

/** Inline code first (nothing inside backticks is read further), then bold and links. */
export function inline(text: string): Inline[] {
  const out: Inline[] = [];
  const parts = text.split('`');
  parts.forEach((part, index) => {
    // An odd part is inside backticks, unless it is the last one (an unclosed backtick).
    if (index % 2 === 1 && index < parts.length - 1) out.push({ type: 'code', text: part });
    else out.push(...richText(index % 2 === 1 ? `\`${part}` : part));
  });
  // Adjacent plain text (around an unclosed backtick) reads as one piece.
  const merged: Inline[] = [];
  for (const piece of out) {
    const last = merged[merged.length - 1];
    if (piece.type === 'text' && last?.type === 'text') last.text += piece.text;
    else if (piece.type !== 'text' || piece.text !== '') merged.push(piece);
  }
  return merged;
}

const plain = (pieces: Inline[]) => pieces.map((piece) => piece.text).join('');

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0)
      blocks.push({ type: 'paragraph', inline: inline(paragraph.join(' ')) });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) code.push(lines[i]!);
      blocks.push({ type: 'code', lang: fence[1] ?? '', text: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) {
      flush();
      const pieces = inline(heading[2]!.trim());
      const text = plain(pieces);
      blocks.push({
        type: 'heading',
        level: heading[1]!.length,
        id: slug(text),
        text,
        inline: pieces,
      });
      continue;
    }
    if (line.trimStart().startsWith('|')) {
      flush();
      const table: string[][] = [];
      for (; i < lines.length && lines[i]!.trimStart().startsWith('|'); i++) {
        const row = cells(lines[i]!);
        // The header separator (|---|---|) carries no content.
        if (!row.every((cell) => /^:?-+:?$/.test(cell))) table.push(row);
      }
      i--;
      const [header = [], ...rows] = table;
      blocks.push({
        type: 'table',
        header: header.map(inline),
        rows: rows.map((row) => row.map(inline)),
      });
      continue;
    }
    if (/^- /.test(line)) {
      flush();
      const items: string[] = [];
      for (; i < lines.length; i++) {
        const current = lines[i]!;
        if (/^- /.test(current)) items.push(current.slice(2));
        else if (/^ {2}\S/.test(current) && items.length > 0)
          items[items.length - 1] += ` ${current.trim()}`;
        else break;
      }
      i--;
      blocks.push({ type: 'list', items: items.map(inline) });
      continue;
    }
    if (line.trim() === '') flush();
    else paragraph.push(line.trim());
  }
  flush();
  return blocks;
}
