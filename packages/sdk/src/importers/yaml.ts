// The small YAML subset dataset.yaml files use: `key: value`, `key: [a, b]`, block lists
// (`- a`), one level of mapping (`label_map:` then `  0: background`), quotes and comments.
export type YamlValue =
  string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

function scalar(text: string): YamlValue {
  const value = text.trim();
  if (value === '' || value === '~' || value === 'null') return null;
  if (/^(["']).*\1$/.test(value)) return value.slice(1, -1).replace(/\\"/g, '"');
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('[') && value.endsWith(']')) {
    const inner = value.slice(1, -1).trim();
    return inner === '' ? [] : splitFlow(inner).map(scalar);
  }
  return value;
}

/** Splits `a, "b, c", d` at top-level commas. */
function splitFlow(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote = '';
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = '';
      current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ',') {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function stripComment(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

export function parseYaml(text: string, file: string): Record<string, YamlValue> {
  const out: Record<string, YamlValue> = {};
  let open: string | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = stripComment(raw).replace(/\s+$/, '');
    if (line.trim() === '' || line.trim() === '---') return;
    const indented = /^\s/.test(line);
    const body = line.trim();
    if (indented || body.startsWith('- ')) {
      if (!open) throw new Error(`${file}:${index + 1}: unexpected indented line`);
      const target = out[open];
      if (body.startsWith('- ')) {
        if (!Array.isArray(target)) {
          if (
            target !== null &&
            !(typeof target === 'object' && Object.keys(target as object).length === 0)
          )
            throw new Error(`${file}:${index + 1}: '${open}' mixes a list and a mapping`);
          out[open] = [];
        }
        (out[open] as YamlValue[]).push(scalar(body.slice(2)));
        return;
      }
      const colon = body.indexOf(':');
      if (colon < 0) throw new Error(`${file}:${index + 1}: expected 'key: value'`);
      if (target === null || Array.isArray(target) || typeof target !== 'object') out[open] = {};
      (out[open] as Record<string, YamlValue>)[String(scalar(body.slice(0, colon)))] = scalar(
        body.slice(colon + 1),
      );
      return;
    }
    const colon = body.indexOf(':');
    if (colon < 0) throw new Error(`${file}:${index + 1}: expected 'key: value'`);
    const key = body.slice(0, colon).trim();
    const rest = body.slice(colon + 1);
    out[key] = scalar(rest);
    open = rest.trim() === '' ? key : undefined;
  });
  return out;
}
