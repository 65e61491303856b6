// Worker-thread entry of the media pool (media-pool.ts): decodes one uploaded file, measures it,
// and renders its thumbnail from the same decode. Answers carry their arrays by transfer.
import { parentPort, workerData } from 'node:worker_threads';
import { encodeWav } from '@loupe/analysis';
import sharp from 'sharp';
import { ORIGINAL_THUMBNAIL } from '../storage/thumbnail-refs.js';
import { computeAudioMetadata, computeImageMetadata } from './media-metadata.js';
import type { MediaResult, MediaTask, MediaWorkerData, WorkerMessage } from './media-pool.js';
import { renderThumbnail, thumbnailFromComputed } from './thumbnails.js';

const port = parentPort!;
const limits = { maxPixels: (workerData as MediaWorkerData).maxPixels };
// Every file is decoded once: libvips's operation cache would only hold memory and cost lookups.
sharp.cache(false);

async function run(task: MediaTask): Promise<{ result: MediaResult; transfer: ArrayBuffer[] }> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const transfer: ArrayBuffer[] = [];
  const own = <T extends ArrayBufferView>(view: T): T => {
    // Only arrays that are all of their buffer move; a view into a larger one is copied.
    if (view.byteOffset === 0 && view.byteLength === view.buffer.byteLength)
      transfer.push(view.buffer as ArrayBuffer);
    return view;
  };
  if (task.kind === 'thumbnail') {
    const rendered = await renderThumbnail(task.ref, bytes, task.media, limits);
    return {
      result: { thumbnail: rendered === ORIGINAL_THUMBNAIL ? rendered : own(rendered) },
      transfer,
    };
  }
  const computed =
    task.media === 'audio'
      ? await computeAudioMetadata(bytes)
      : await computeImageMetadata(bytes, sharp, limits);
  const result: MediaResult = {
    values: computed.values,
    vector: computed.vector && own(computed.vector),
  };
  if (task.thumbnail) {
    const rendered = await thumbnailFromComputed(task.ref, computed).catch(() => undefined);
    if (rendered) result.thumbnail = rendered === ORIGINAL_THUMBNAIL ? rendered : own(rendered);
  }
  if (task.pixels && computed.pixels)
    result.pixels = { ...computed.pixels, data: own(computed.pixels.data) };
  return { result, transfer };
}

port.on('message', ({ id, task }: { id: number; task: MediaTask }) => {
  run(task).then(
    ({ result, transfer }) => {
      // Transfer each buffer once: two views may share one (a thumbnail and its pixels never do).
      port.postMessage({ id, result } satisfies WorkerMessage, [...new Set(transfer)]);
    },
    (error: unknown) =>
      port.postMessage({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies WorkerMessage),
  );
});
/**
 * A tiny clip and image go through before the thread says it is ready, so the first file's
 * deadline does not pay for compiling the decoders and the analysis.
 */
async function warmUp(): Promise<void> {
  const clip = Buffer.from(encodeWav([new Float32Array(800)], 8000));
  const image = await sharp({
    create: { width: 16, height: 16, channels: 3, background: 'grey' },
  })
    .png()
    .toBuffer();
  for (const media of ['audio', 'image'] as const)
    await run({
      kind: 'measure',
      media,
      ref: '',
      bytes: media === 'audio' ? clip : image,
      thumbnail: true,
      pixels: false,
    });
}

await warmUp().catch(() => undefined);
port.postMessage({ ready: true } satisfies WorkerMessage);
