// A six-item table for the hand-checked tests of filters, sort and histograms.
import { ItemTableBuilder, type ItemTable } from './table.js';

// Six items; the expected rows of every case below are read off this table by hand.
//  row id split  record  w     label  ok     at
//  0   a  train  r1      10    cat    true   2024-01-01
//  1   b  val    r1      —     dog    false  —
//  2   c  train  r2      −2.5  —      —      2024-01-02
//  3   d  test   r2      10    ant    true   2024-01-01
//  4   e  train  r2      0     dog    false  2024-01-03 12:00
//  5   f  —      r3      7     cat    true   2024-01-02
export function fixture(): ItemTable {
  return new ItemTableBuilder([
    { id: 'w', type: 'numeric' },
    { id: 'label', type: 'string' },
    { id: 'ok', type: 'boolean' },
    { id: 'at', type: 'timestamp' },
  ])
    .append([
      {
        id: 'a',
        split: 'train',
        created_record: 'r1',
        metadata: { w: 10, label: 'cat', ok: true, at: '2024-01-01T00:00:00Z' },
      },
      {
        id: 'b',
        split: 'val',
        created_record: 'r1',
        metadata: { w: null, label: 'dog', ok: false },
      },
      {
        id: 'c',
        split: 'train',
        created_record: 'r2',
        metadata: { w: -2.5, at: '2024-01-02T00:00:00Z' },
      },
      {
        id: 'd',
        split: 'test',
        created_record: 'r2',
        metadata: { w: 10, label: 'ant', ok: true, at: Date.UTC(2024, 0, 1) },
      },
      {
        id: 'e',
        split: 'train',
        created_record: 'r2',
        metadata: { w: 0, label: 'dog', ok: false, at: '2024-01-03T12:00:00Z' },
      },
      {
        id: 'f',
        split: null,
        created_record: 'r3',
        metadata: { w: 7, label: 'cat', ok: true, at: '2024-01-02T00:00:00Z' },
      },
    ])
    .build();
}
