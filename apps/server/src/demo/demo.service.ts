// Seeds the demo datasets (`npm start -- --demo`, on an empty instance): one generated dataset
// of each task type with media, metadata, splits and two prediction sets. It goes through the same
// upload code as the SDKs, as the system actor: server-internal work the license does not gate.
import {
  DEMO_TASKS,
  demoDataset,
  encodeWav,
  type DemoDataset,
  type RawImage,
} from '@loupe/analysis';
import sharp from 'sharp';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { MediaService } from '../media/media.service.js';
import type { PredictionSetsService } from '../prediction-sets/prediction-sets.service.js';
import type { SamplesService } from '../samples/samples.service.js';
import { systemActor } from '../users/actor.js';

export const DEMO_SAMPLES_PER_DATASET = 120;
const BATCH = 200;
const DEMO = systemActor('demo datasets');

async function png(image: RawImage): Promise<Buffer> {
  return sharp(Buffer.from(image.data), {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .png()
    .toBuffer();
}

export class DemoService {
  constructor(
    private readonly services: {
      datasets: Pick<DatasetsService, 'list' | 'create'>;
      media: Pick<MediaService, 'uploadMedia'>;
      samples: Pick<SamplesService, 'upload'>;
      predictionSets: Pick<PredictionSetsService, 'create' | 'uploadPredictions'>;
    },
    private readonly log: { info(details: object, message: string): void },
  ) {}

  /** Creates every demo dataset that does not exist yet; answers the names created. */
  async seed(samplesPerDataset = DEMO_SAMPLES_PER_DATASET): Promise<string[]> {
    const existing = new Set((await this.services.datasets.list()).map((d) => d.name));
    const created: string[] = [];
    for (const task of DEMO_TASKS) {
      const demo = demoDataset(task, samplesPerDataset);
      if (existing.has(demo.name)) continue;
      await this.upload(demo);
      created.push(demo.name);
      this.log.info({ dataset: demo.name }, 'demo dataset seeded');
    }
    return created;
  }

  private async upload(demo: DemoDataset): Promise<void> {
    const { dataset } = await this.services.datasets.create(DEMO, {
      name: demo.name,
      task_type: demo.task_type,
      description: demo.description,
      class_names: demo.class_names,
      value_names: demo.value_names,
      label_map: demo.label_map,
      exist_ok: true,
    });
    for (let start = 0; start < demo.samples.length; start += BATCH) {
      const rows = [];
      for (const sample of demo.samples.slice(start, start + BATCH)) {
        const media = sample.image
          ? await this.services.media.uploadMedia(
              DEMO,
              dataset.id,
              await png(sample.image),
              'image/png',
            )
          : await this.services.media.uploadMedia(
              DEMO,
              dataset.id,
              Buffer.from(encodeWav([sample.audio!.samples], sample.audio!.sampleRate)),
              'audio/wav',
            );
        const mask = sample.mask
          ? await this.services.media.uploadMedia(
              DEMO,
              dataset.id,
              await png(sample.mask),
              'image/png',
            )
          : undefined;
        rows.push({
          id: sample.id,
          [sample.image ? 'image' : 'audio']: media.key,
          split: sample.split,
          ...(sample.label ? { label: sample.label } : {}),
          ...(sample.values ? { values: sample.values } : {}),
          ...(sample.objects ? { objects: sample.objects } : {}),
          ...(sample.transcript ? { transcript: sample.transcript } : {}),
          ...(mask ? { mask: mask.key } : {}),
          metadata: sample.metadata,
        });
      }
      await this.services.samples.upload(DEMO, dataset.id, rows, demo.metadata_types);
    }
    for (const prediction of demo.predictions) {
      const { set } = await this.services.predictionSets.create(
        DEMO,
        dataset.id,
        prediction.name,
        true,
      );
      for (let start = 0; start < prediction.items.length; start += BATCH) {
        const rows = [];
        for (const { mask, ...item } of prediction.items.slice(start, start + BATCH)) {
          // A predicted label map is media too: uploaded first, then named by its key.
          const upload = mask
            ? await this.services.media.uploadMedia(DEMO, dataset.id, await png(mask), 'image/png')
            : undefined;
          rows.push(upload ? { ...item, mask: upload.key } : item);
        }
        await this.services.predictionSets.uploadPredictions(DEMO, dataset.id, set.id, rows);
      }
    }
  }
}
