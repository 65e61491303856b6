// Dictionary coding of class names (and splits) as an evaluation reads them.

/** Codes of names by first appearance, starting from the given names. */
export class ClassIndex {
  readonly names: string[];
  private readonly index = new Map<string, number>();
  constructor(names: readonly string[]) {
    this.names = [...names];
    this.names.forEach((name, i) => this.index.set(name, i));
  }
  of(name: string | null | undefined): number {
    if (name === null || name === undefined) return -1;
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.names.length;
      this.names.push(name);
      this.index.set(name, i);
    }
    return i;
  }
  known(name: string): number {
    return this.index.get(name) ?? -1;
  }
}
