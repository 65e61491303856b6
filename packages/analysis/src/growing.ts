// A typed array grown as items are appended: one item at a time (`push`), or a run written in place
// after `reserve`; capacity doubles, so appending is amortised constant time.

export type GrowableArray = Int32Array | Float64Array | Float32Array | Uint8Array;

export class GrowingArray<T extends GrowableArray> {
  /** Items appended so far; a caller writing into `reserve`'s array moves it on itself. */
  length = 0;
  constructor(private data: T) {}

  /** Room for `count` more items: the array to write them into, from `length` on. */
  reserve(count: number): T {
    if (this.length + count > this.data.length) {
      const size = Math.max(this.length + count, this.data.length * 2);
      const bigger = new (this.data.constructor as new (n: number) => T)(size);
      bigger.set(this.data.subarray(0, this.length));
      this.data = bigger;
    }
    return this.data;
  }

  push(value: number): void {
    this.reserve(1)[this.length++] = value;
  }

  /** A copy of the items, exactly as long as they are. */
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }
}
