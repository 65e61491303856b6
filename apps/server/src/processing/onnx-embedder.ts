// An optional image embedding model (LOUPE_ONNX_MODEL): an ONNX file that maps an NCHW float
// image to a vector, run with onnxruntime-node on the CPU. Its vectors become a computed feature
// named `onnx.<file name>`, next to the model-free descriptor.
import { basename, extname } from 'node:path';
import sharp from 'sharp';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import type { RawPixels } from './thumbnails.js';

/** ImageNet statistics: what torchvision and timm image models expect after scaling to 0–1. */
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];
const DEFAULT_SIDE = 224;

export class OnnxEmbedder {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly session: InferenceSession,
    private readonly tensor: typeof Tensor,
    readonly featureName: string,
    private readonly input: string,
    private readonly output: string,
    readonly width: number,
    readonly height: number,
  ) {}

  /** Loads the model; fails with a readable message when it does not take one NCHW image. */
  static async load(path: string): Promise<OnnxEmbedder> {
    const ort = await import('onnxruntime-node');
    let session: InferenceSession;
    try {
      session = await ort.InferenceSession.create(path, { intraOpNumThreads: 1 });
    } catch (error) {
      throw new Error(`LOUPE_ONNX_MODEL: cannot load ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const input = session.inputNames[0]!;
    const meta = (session as unknown as { inputMetadata?: { shape?: (number | string)[] }[] })
      .inputMetadata?.[0];
    const shape = meta?.shape ?? [];
    if (shape.length !== 4 || (typeof shape[1] === 'number' && shape[1] !== 3)) {
      throw new Error(
        `LOUPE_ONNX_MODEL: ${path} must take one image as [1, 3, height, width]; its input '${input}' is [${shape.join(', ')}]`,
      );
    }
    const side = (value: number | string | undefined) =>
      typeof value === 'number' && value > 0 ? value : DEFAULT_SIDE;
    return new OnnxEmbedder(
      session,
      ort.Tensor,
      `onnx.${basename(path, extname(path))}`,
      input,
      session.outputNames[0]!,
      side(shape[3]),
      side(shape[2]),
    );
  }

  /** The embedding of decoded RGB(A) pixels, flattened. Runs one image at a time. */
  embed(pixels: RawPixels): Promise<Float32Array> {
    const run = this.queue.then(() => this.run(pixels));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(pixels: RawPixels): Promise<Float32Array> {
    const { data } = await sharp(pixels.data, {
      raw: { width: pixels.width, height: pixels.height, channels: pixels.channels },
    })
      .removeAlpha()
      .toColourspace('srgb')
      .resize(this.width, this.height, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const plane = this.width * this.height;
    const chw = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) {
      for (let c = 0; c < 3; c++)
        chw[c * plane + i] = (data[i * 3 + c]! / 255 - MEAN[c]!) / STD[c]!;
    }
    const result = await this.session.run({
      [this.input]: new this.tensor('float32', chw, [1, 3, this.height, this.width]),
    });
    return Float32Array.from(result[this.output]!.data as Float32Array);
  }
}

/** Loads the model on first use and remembers it (or the error, reported on every use). */
export function lazyEmbedder(path: string | undefined): (() => Promise<OnnxEmbedder>) | undefined {
  if (!path) return undefined;
  let loading: Promise<OnnxEmbedder> | undefined;
  return () => (loading ??= OnnxEmbedder.load(path));
}
