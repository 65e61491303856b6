// A minimal WebAssembly binary writer: enough to emit the few SIMD loops of the PCA kernels
// (kernels.ts) as bytes at run time, so no compiled artefact or toolchain is needed. Only i32
// parameters, i32/v128 locals and the instructions below; see the WebAssembly core
// specification (binary format) for the opcodes.

export const I32 = 0x7f;
export const F64 = 0x7c;
export const V128 = 0x7b;
type LocalType = typeof I32 | typeof F64 | typeof V128;

function unsignedLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

function signedLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/** Memory argument of a load or store: log2 of the alignment and a constant byte offset. */
function memarg(alignLog2: number, offset: number): number[] {
  return [alignLog2, ...unsignedLeb(offset)];
}

/**
 * One function's body, written as a stack-machine instruction stream. Methods return `this` so
 * an expression reads left to right as it executes: `f.get(a).get(b).add().set(c)` is c = a + b.
 */
export class FunctionBuilder {
  readonly code: number[] = [];
  private readonly locals: LocalType[] = [];
  private count: number;

  constructor(
    readonly name: string,
    readonly parameters: number,
  ) {
    this.count = parameters;
  }

  /** A new local variable's index. */
  local(type: LocalType): number {
    this.locals.push(type);
    return this.count++;
  }

  private op(...bytes: number[]): this {
    this.code.push(...bytes);
    return this;
  }

  get(index: number): this {
    return this.op(0x20, ...unsignedLeb(index));
  }
  set(index: number): this {
    return this.op(0x21, ...unsignedLeb(index));
  }
  tee(index: number): this {
    return this.op(0x22, ...unsignedLeb(index));
  }
  i32(value: number): this {
    return this.op(0x41, ...signedLeb(value));
  }
  add(): this {
    return this.op(0x6a);
  }
  sub(): this {
    return this.op(0x6b);
  }
  mul(): this {
    return this.op(0x6c);
  }
  divU(): this {
    return this.op(0x6e);
  }
  shl(): this {
    return this.op(0x74);
  }
  and(): this {
    return this.op(0x71);
  }
  geU(): this {
    return this.op(0x4f);
  }
  gtU(): this {
    return this.op(0x4b);
  }
  /** Pops a, b and a condition; pushes a when the condition is non-zero, else b. */
  select(): this {
    return this.op(0x1b);
  }
  /** Start of a block; `br(depth)` to it jumps past its end. */
  block(): this {
    return this.op(0x02, 0x40);
  }
  /** Start of a loop; `br(depth)` to it jumps back to its start. */
  loop(): this {
    return this.op(0x03, 0x40);
  }
  /** `if` whose arm leaves nothing. */
  if(): this {
    return this.op(0x04, 0x40);
  }
  /** `if` whose two arms each leave one i32. */
  ifI32(): this {
    return this.op(0x04, I32);
  }
  else(): this {
    return this.op(0x05);
  }
  end(): this {
    return this.op(0x0b);
  }
  br(depth: number): this {
    return this.op(0x0c, ...unsignedLeb(depth));
  }
  brIf(depth: number): this {
    return this.op(0x0d, ...unsignedLeb(depth));
  }
  call(functionIndex: number): this {
    return this.op(0x10, ...unsignedLeb(functionIndex));
  }
  f32Load(offset = 0): this {
    return this.op(0x2a, ...memarg(2, offset));
  }
  f32Store(offset = 0): this {
    return this.op(0x38, ...memarg(2, offset));
  }
  f64Load(offset = 0): this {
    return this.op(0x2b, ...memarg(3, offset));
  }
  f64Store(offset = 0): this {
    return this.op(0x39, ...memarg(3, offset));
  }
  f32Add(): this {
    return this.op(0x92);
  }
  f64Add(): this {
    return this.op(0xa0);
  }
  f64Zero(): this {
    return this.op(0x44, 0, 0, 0, 0, 0, 0, 0, 0);
  }
  f64Sub(): this {
    return this.op(0xa1);
  }
  f64Mul(): this {
    return this.op(0xa2);
  }
  f64PromoteF32(): this {
    return this.op(0xbb);
  }
  private simd(opcode: number, ...rest: number[]): this {
    return this.op(0xfd, ...unsignedLeb(opcode), ...rest);
  }
  v128Load(offset = 0): this {
    return this.simd(0x00, ...memarg(4, offset));
  }
  v128Store(offset = 0): this {
    return this.simd(0x0b, ...memarg(4, offset));
  }
  /** Loads one f32 into all four lanes. */
  v128Load32Splat(offset = 0): this {
    return this.simd(0x09, ...memarg(2, offset));
  }
  /** Loads two f32 into the low half, zeroes the high half. */
  v128Load64Zero(offset = 0): this {
    return this.simd(0x5d, ...memarg(3, offset));
  }
  v128Zero(): this {
    return this.simd(0x0c, ...new Array<number>(16).fill(0));
  }
  f32x4Add(): this {
    return this.simd(0xe4);
  }
  f32x4Sub(): this {
    return this.simd(0xe5);
  }
  f32x4Mul(): this {
    return this.simd(0xe6);
  }
  f32x4ExtractLane(lane: number): this {
    return this.simd(0x1f, lane);
  }
  f64x2Add(): this {
    return this.simd(0xf0);
  }
  f64x2Sub(): this {
    return this.simd(0xf1);
  }
  f64x2Mul(): this {
    return this.simd(0xf2);
  }
  f64x2Splat(): this {
    return this.simd(0x14);
  }
  f64x2ExtractLane(lane: number): this {
    return this.simd(0x21, lane);
  }
  f64x2PromoteLowF32x4(): this {
    return this.simd(0x5f);
  }

  /** The function's code-section entry: local declarations, instructions, final `end`. */
  body(): number[] {
    const runs: [number, LocalType][] = [];
    for (const type of this.locals) {
      const last = runs[runs.length - 1];
      if (last && last[1] === type) last[0]++;
      else runs.push([1, type]);
    }
    const bytes = [...unsignedLeb(runs.length)];
    for (const [count, type] of runs) bytes.push(...unsignedLeb(count), type);
    bytes.push(...this.code, 0x0b);
    return [...unsignedLeb(bytes.length), ...bytes];
  }
}

/** 64 KiB pages: the whole 32-bit address space, so any memory the caller makes fits. */
const MAXIMUM_PAGES = 65536;

function section(id: number, content: number[]): number[] {
  return [id, ...unsignedLeb(content.length), ...content];
}

function vector(items: number[][]): number[] {
  return [...unsignedLeb(items.length), ...items.flat()];
}

function name(text: string): number[] {
  const bytes = Array.from(new TextEncoder().encode(text));
  return [...unsignedLeb(bytes.length), ...bytes];
}

/**
 * A module of functions taking i32 parameters and returning nothing, each exported under its
 * name (function i is index i for `call`), importing one shared memory as env.memory.
 */
export function moduleBytes(functions: FunctionBuilder[]): Uint8Array {
  const types = functions.map((f) => [
    0x60,
    ...unsignedLeb(f.parameters),
    ...Array<number>(f.parameters).fill(I32),
    0,
  ]);
  const memoryImport = [
    ...name('env'),
    ...name('memory'),
    0x02,
    0x03,
    1,
    ...unsignedLeb(MAXIMUM_PAGES),
  ];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(types)),
    ...section(2, vector([memoryImport])),
    ...section(3, vector(functions.map((_, i) => unsignedLeb(i)))),
    ...section(7, vector(functions.map((f, i) => [...name(f.name), 0x00, ...unsignedLeb(i)]))),
    ...section(10, vector(functions.map((f) => f.body()))),
  ]);
}
