import { describe, expect, it } from 'vitest';
import { DEMO_TASKS, DEMO_WORDS, demoDataset } from './demo.js';

describe('demo datasets', () => {
  it.each(DEMO_TASKS)(
    '%s: deterministic, with media, splits, metadata and what the task needs',
    (task) => {
      const a = demoDataset(task, 12, 3);
      const b = demoDataset(task, 12, 3);
      expect(a.samples.map((s) => s.id)).toEqual(b.samples.map((s) => s.id));
      expect(a.samples[0]!.image?.data ?? a.samples[0]!.audio?.samples).toEqual(
        b.samples[0]!.image?.data ?? b.samples[0]!.audio?.samples,
      );
      expect(new Set(a.samples.map((s) => s.id)).size).toBe(12);
      for (const sample of a.samples) {
        expect(['train', 'validation', 'test']).toContain(sample.split);
        expect(sample.metadata).toHaveProperty('time_of_day');
        expect(sample.image ?? sample.audio).toBeDefined();
      }
      const first = a.samples[0]!;
      switch (task) {
        case 'classification':
        case 'audio_classification':
          expect(a.class_names).toContain(first.label);
          break;
        case 'regression':
          expect(Object.keys(first.values!)).toEqual(a.value_names);
          break;
        case 'object_detection':
        case 'instance_segmentation':
          for (const object of first.objects!) {
            const [x, y, w, h] = object.bbox;
            expect(x + w).toBeLessThanOrEqual(first.image!.width);
            expect(y + h).toBeLessThanOrEqual(first.image!.height);
            if (task === 'instance_segmentation')
              expect(object.segmentation![0]!.length % 2).toBe(0);
          }
          break;
        case 'semantic_segmentation':
          expect(first.mask!.data.length).toBe(first.image!.width * first.image!.height);
          expect(Math.max(...first.mask!.data)).toBeLessThanOrEqual(
            Object.keys(a.label_map!).length - 1,
          );
          break;
        case 'automatic_speech_recognition':
          expect(
            first
              .transcript!.split(' ')
              .every((w) => (DEMO_WORDS as readonly string[]).includes(w)),
          ).toBe(true);
          break;
      }
      // Every task has the two prediction sets, one prediction per sample.
      expect(a.predictions.map((p) => p.name)).toEqual(['model-a', 'model-b']);
      for (const set of a.predictions)
        expect(set.items.map((p) => p.id)).toEqual(a.samples.map((s) => s.id));
      // Audio is recorded, not photographed: no camera metadata on audio samples.
      const audio = task === 'audio_classification' || task === 'automatic_speech_recognition';
      for (const sample of a.samples) {
        if (audio) {
          expect(sample.metadata).not.toHaveProperty('camera');
          expect(sample.metadata).not.toHaveProperty('exposure_ms');
          expect(sample.metadata).toHaveProperty('microphone');
          expect(sample.metadata).toHaveProperty('snr_db');
        } else expect(sample.metadata).toHaveProperty('camera');
      }
    },
  );

  it('predicts semantic segmentation label maps, model-a closer to the truth than model-b', () => {
    const d = demoDataset('semantic_segmentation', 60, 2);
    const classes = Object.keys(d.label_map!).length;
    // Mean IoU over the foreground classes, pixels of all samples pooled.
    const meanIou = (model: number) => {
      const intersection = new Array<number>(classes).fill(0);
      const union = new Array<number>(classes).fill(0);
      d.samples.forEach((sample, i) => {
        const truth = sample.mask!;
        const predicted = d.predictions[model]!.items[i]!.mask!;
        expect([predicted.width, predicted.height, predicted.channels]).toEqual([
          truth.width,
          truth.height,
          1,
        ]);
        expect(Math.max(...predicted.data)).toBeLessThan(classes);
        for (let p = 0; p < truth.data.length; p++) {
          const t = truth.data[p]!;
          const q = predicted.data[p]!;
          if (t === q) intersection[t]!++;
          union[t]!++;
          if (t !== q) union[q]!++;
        }
      });
      const ious = intersection.slice(1).map((v, c) => v / Math.max(1, union[c + 1]!));
      return ious.reduce((a, b) => a + b, 0) / ious.length;
    };
    const a = meanIou(0);
    const b = meanIou(1);
    expect(a).toBeGreaterThan(0.6);
    expect(a).toBeGreaterThan(b + 0.1);
    expect(b).toBeGreaterThan(0.2);
  });

  it('makes model-b worse at night for classification', () => {
    const d = demoDataset('classification', 400, 1);
    const accuracy = (model: number, night: boolean) => {
      const rows = d.samples
        .map((s, i) => ({ s, p: d.predictions[model]!.items[i]! }))
        .filter(({ s }) => (s.metadata.time_of_day === 'night') === night);
      return rows.filter(({ s, p }) => s.label === p.label).length / rows.length;
    };
    expect(accuracy(1, true)).toBeLessThan(accuracy(1, false) - 0.2);
    expect(accuracy(0, true)).toBeGreaterThan(0.75);
  });
});
