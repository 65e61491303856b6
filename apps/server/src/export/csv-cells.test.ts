// A sample's metadata cells made in place from the stored JSON (MetadataCells) against the plain
// way: JSON.parse, then each column's own value as a cell. Hand-picked texts at the edges of the
// in-place reader, then thousands of random objects as JSON.stringify writes them.
import { describe, expect, it } from 'vitest';
import { MetadataCells, metadataCell } from './csv-cells.js';

/** The cells the slow, obvious way. */
function reference(text: string | null, columns: string[]): string {
  let object: unknown = null;
  try {
    object = text ? JSON.parse(text) : null;
  } catch {
    object = null;
  }
  const own = (name: string) =>
    object && typeof object === 'object' && !Array.isArray(object) && Object.hasOwn(object, name)
      ? (object as Record<string, unknown>)[name]
      : undefined;
  return columns.map((name) => `,${metadataCell(own(name))}`).join('');
}

describe('MetadataCells', () => {
  it('writes the cells of the columns in column order, empty where a sample has none', () => {
    const cells = new MetadataCells(['weather', 'hour', 'indoor', 'score', 'note']);
    expect(cells.read('{"weather":"fog, light","hour":14,"indoor":false,"score":0.852466}')).toBe(
      ',"fog, light",14,false,0.852466,',
    );
    expect(cells.read('{"score":1e-7,"note":"says \\"hi\\"","other":[1,2]}')).toBe(
      ',,,,1e-7,"says ""hi"""',
    );
    expect(cells.read(null)).toBe(',,,,,');
    expect(cells.read('not json')).toBe(',,,,,');
    expect(cells.read('[1,2]')).toBe(',,,,,');
    expect(new MetadataCells([]).read('{"a":1}')).toBe('');
  });

  it('gives the cells of JSON.parse for texts at the edges of the in-place reader', () => {
    const columns = ['a', 'b', 'constructor', '__proto__', 'é', '2'];
    const texts = [
      '{}',
      '{} ',
      ' {"a":1}',
      '{"a":1,}',
      '{"a":1 }',
      '{"a" :1}',
      '{"a":1,"a":2}',
      '{"b":"x","a":"y"}',
      '{"2":3,"a":"two"}',
      '{"é":"ü","a":"日本, 語"}',
      '{"a":"tab\\there"}',
      '{"a":"line\nbreak"}',
      '{"a":"\\ud83d\\ude00"}',
      '{"a":"😀, smile"}',
      '{"__proto__":5,"constructor":"c"}',
      '{"a":{"nested":1},"b":2}',
      '{"a":[1,"x"]}',
      '{"a":null,"b":true}',
      '{"a":nul}',
      '{"a":truex}',
      '{"a":"unterminated}',
      '{"a":1',
      '{"a"',
      '{',
      '',
      'null',
      '3',
      '"text"',
      ...[
        '0',
        '-0',
        '-0.0',
        '1.0',
        '1.50',
        '100',
        '-12',
        '0.1',
        '0.000001',
        '0.0000001',
        '0.00000123',
        '1e21',
        '1E+2',
        '2e-3',
        '1e400',
        '-1e400',
        '123456789012345',
        '1234567890123456',
        '12345678901234567890',
        '100000000000000000000',
        '1000000000000000000000',
        '0.30000000000000004',
        '0.123456789012345',
        '0.1234567890123456',
        '9007199254740993',
        '01',
        '1.',
        '.5',
        '-',
        '+1',
        '1e',
      ].map((n) => `{"a":${n},"b":${n}}`),
    ];
    const cells = new MetadataCells(columns);
    for (const text of texts) expect(cells.read(text), text).toBe(reference(text, columns));
  });

  it('gives the cells of JSON.parse for random objects as JSON.stringify writes them', () => {
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    const names = ['weather', 'hour', 'indoor', 'camera', 'score', 'x', 'note, 2', '10'];
    const columns = ['weather', 'hour', 'indoor', 'camera', 'score', 'note, 2', '10', 'absent'];
    const strings = ['', 'sunny', 'fog, light', 'say "hi"', 'a\nb', 'ünïcödé', '😀', '\\', ' x '];
    const value = (): unknown => {
      switch (Math.floor(random() * 8)) {
        case 0:
          return pick(strings) + pick(strings);
        case 1:
          return Math.floor(random() * 1e6) - 5e5;
        case 2:
          return random() * 10 ** Math.floor(random() * 40 - 20);
        case 3:
          return Math.round(random() * 1e6) / 1e6;
        case 4:
          return random() < 0.5;
        case 5:
          return null;
        case 6:
          return -random() * 1e-8;
        default:
          return pick([0, -0, 1e21, 123456789012345680000, Number.MAX_VALUE, 5e-324]);
      }
    };
    const cells = new MetadataCells(columns);
    for (let n = 0; n < 5000; n++) {
      const object: Record<string, unknown> = {};
      const count = Math.floor(random() * names.length);
      for (let k = 0; k < count; k++) object[pick(names)] = value();
      const text = JSON.stringify(object);
      expect(cells.read(text), text).toBe(reference(text, columns));
    }
  });
});
