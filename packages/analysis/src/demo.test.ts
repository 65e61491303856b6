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
      if (task !== 'semantic_segmentation') {
        expect(a.predictions.map((p) => p.name)).toEqual(['model-a', 'model-b']);
        expect(a.predictions[0]!.items.map((p) => p.id)).toEqual(a.samples.map((s) => s.id));
      }
    },
  );

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
