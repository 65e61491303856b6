// The small YAML subset dataset.yaml files use (docs/formats.md): `key: value`, flow lists
// `[a, b]` and flow mappings `{0: a}`, block lists (`- a`), one level of mapping (`label_map:`
// then `  0: background`), quotes and comments. Anything else is refused naming the line.
import { CliError } from '../cli/errors.js';

export type YamlValue =
  string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

function scalar(text: string, where: string): YamlValue {
  const value = text.trim();
  if (value === '' || value === '~' || value === 'null') return null;
  if (/^(["']).*\1$/.test(value)) return value.slice(1, -1).replace(/\\"/g, '"');
  if (/^["']/.test(value)) throw new CliError(`${where}: a quoted string is not closed`);
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value)) return Number(value);
  if (/^[&*!]/.test(value))
    throw new CliError(`${where}: anchors, aliases and tags are not understood here`);
  if (/^[|>][-+]?$/.test(value))
    throw new CliError(`${where}: multi-line strings are not understood here`);
  if (value.startsWith('[') && value.endsWith(']')) {
    const inner = value.slice(1, -1).trim();
    return inner === '' ? [] : splitFlow(inner).map((part) => flowItem(part, where));
  }
  if (value.startsWith('{') && value.endsWith('}')) {
    const inner = value.slice(1, -1).trim();
    const out: Record<string, YamlValue> = {};
    for (const part of inner === '' ? [] : splitFlow(inner)) {
      const colon = part.indexOf(':');
      if (colon < 0) throw new CliError(`${where}: expected 'key: value' in {…}, got '${part}'`);
      out[String(scalar(part.slice(0, colon), where))] = flowItem(part.slice(colon + 1), where);
    }
    return out;
  }
  return value;
}

/** A value inside a flow list or mapping: a scalar, never another collection. */
function flowItem(text: string, where: string): YamlValue {
  if (/^\s*[[{]/.test(text)) throw new CliError(`${where}: nested lists or mappings are too deep`);
  return scalar(text, where);
}

/** Splits `a, "b, c", d` at top-level commas. */
function splitFlow(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote = '';
  let depth = 0;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = '';
      current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      if (c === '[' || c === '{') depth++;
      if (c === ']' || c === '}') depth--;
      current += c;
    }
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
  /** Indentation of the open key's first nested line: a deeper one is nesting we refuse. */
  let nestedIndent: number | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const where = `${file}:${index + 1}`;
    const line = stripComment(raw).replace(/\s+$/, '');
    if (line.trim() === '' || line.trim() === '---') return;
    const indent = line.length - line.trimStart().length;
    const body = line.trim();
    if (indent > 0 || body.startsWith('- ')) {
      if (!open) throw new CliError(`${where}: unexpected indented line`);
      nestedIndent ??= indent;
      if (indent > nestedIndent)
        throw new CliError(`${where}: nesting deeper than one level is not understood here`);
      const target = out[open];
      if (body.startsWith('- ')) {
        if (!Array.isArray(target)) {
          if (
            target !== null &&
            !(typeof target === 'object' && Object.keys(target as object).length === 0)
          )
            throw new CliError(`${where}: '${open}' mixes a list and a mapping`);
          out[open] = [];
        }
        (out[open] as YamlValue[]).push(flowItem(body.slice(2), where));
        return;
      }
      const colon = body.indexOf(':');
      if (colon < 0) throw new CliError(`${where}: expected 'key: value'`);
      if (Array.isArray(target))
        throw new CliError(`${where}: '${open}' mixes a list and a mapping`);
      if (body.slice(colon + 1).trim() === '')
        throw new CliError(`${where}: nesting deeper than one level is not understood here`);
      if (target === null || typeof target !== 'object') out[open] = {};
      (out[open] as Record<string, YamlValue>)[String(scalar(body.slice(0, colon), where))] =
        flowItem(body.slice(colon + 1), where);
      return;
    }
    const colon = body.indexOf(':');
    if (colon < 0) throw new CliError(`${where}: expected 'key: value'`);
    const key = body.slice(0, colon).trim();
    const rest = body.slice(colon + 1);
    out[key] = scalar(rest, where);
    open = rest.trim() === '' ? key : undefined;
    nestedIndent = undefined;
  });
  return out;
}
