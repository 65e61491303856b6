// Disjoint sets over rows 0..n−1 (union by size, path halving), and the groups they form: how the
// duplicate checks turn pairs into groups (docs/health-checks.md, "Duplicates").

/** Groups of rows: each group's members and each row's group. */
export interface DuplicateGroups {
  /** Per row: its group, numbered by first member in row order; −1 for a row in no group. */
  group: Int32Array;
  /** Each group's rows, ascending; group g's first member comes before group g + 1's. */
  members: Int32Array[];
}

export class UnionFind {
  readonly #parent: Int32Array;
  readonly #size: Int32Array;

  constructor(readonly n: number) {
    this.#parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.#parent[i] = i;
    this.#size = new Int32Array(n).fill(1);
  }

  find(i: number): number {
    const parent = this.#parent;
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  }

  /** Joins the sets of a and b; false when they were one already. */
  union(a: number, b: number): boolean {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return false;
    if (this.#size[ra]! < this.#size[rb]!) [ra, rb] = [rb, ra];
    this.#parent[rb] = ra;
    this.#size[ra]! += this.#size[rb]!;
    return true;
  }

  /** Size of the set holding i. */
  sizeOf(i: number): number {
    return this.#size[this.find(i)]!;
  }

  /** The sets of two or more rows as groups (see DuplicateGroups). */
  groups(): DuplicateGroups {
    const n = this.n;
    const group = new Int32Array(n).fill(-1);
    const byRoot = new Int32Array(n).fill(-1);
    const counts: number[] = [];
    for (let i = 0; i < n; i++) {
      const root = this.find(i);
      if (this.#size[root]! < 2) continue;
      if (byRoot[root] === -1) {
        byRoot[root] = counts.length;
        counts.push(0);
      }
      const g = byRoot[root]!;
      group[i] = g;
      counts[g]!++;
    }
    const members = counts.map((count) => new Int32Array(count));
    const filled = new Int32Array(counts.length);
    for (let i = 0; i < n; i++) {
      const g = group[i]!;
      if (g >= 0) members[g]![filled[g]!++] = i;
    }
    return { group, members };
  }
}

/** Keeps the groups `keep` accepts, renumbered in the same order (stable ids by first member). */
export function filterGroups(
  groups: DuplicateGroups,
  keep: (members: Int32Array, index: number) => boolean,
): DuplicateGroups {
  const group = new Int32Array(groups.group.length).fill(-1);
  const members: Int32Array[] = [];
  groups.members.forEach((rows, index) => {
    if (!keep(rows, index)) return;
    for (const row of rows) group[row] = members.length;
    members.push(rows);
  });
  return { group, members };
}
