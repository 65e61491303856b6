// The metrics catalogue and the formatting rules of the product rules.
import { describe, expect, it } from 'vitest';
import {
  COMPARISON_METRICS,
  METRICS,
  betterModel,
  deltaArrow,
  formatMetricValue,
  formatModelNumber,
  formatPercentage,
  formatRelativeValue,
  getMetric,
  metricTitle,
  relativeDelta,
  scoreScale,
} from './catalogue.js';

describe('metrics catalogue', () => {
  it('has unique ids, and every comparison metric is in it', () => {
    expect(new Set(METRICS.map((m) => m.id)).size).toBe(METRICS.length);
    for (const ids of Object.values(COMPARISON_METRICS)) {
      for (const id of ids) expect(getMetric(id), id).toBeDefined();
    }
  });

  it('keeps the ids the product names and their directions', () => {
    for (const id of ['accuracy', 'f1_score', 'tp', 'mAP_COCO', 'IoU', 'area_under_roc']) {
      expect(getMetric(id)?.desiredDirection).toBe('higher');
    }
    for (const id of ['equal_error_rate', 'word_error_rate', 'mean_squared_error', 'fp', 'fn']) {
      expect(getMetric(id)?.desiredDirection).toBe('lower');
    }
    expect(getMetric('items')).toMatchObject({ type: 'int', desiredDirection: 'neutral' });
  });

  it("names a metric by its task where the catalogue's title says too little", () => {
    expect(metricTitle('classification', 'count')).toBe('Ground-truth annotations');
    expect(metricTitle('audio_classification', 'count')).toBe('Ground-truth annotations');
    expect(metricTitle('automatic_speech_recognition', 'count')).toBe('Word count');
    // Other tasks and metrics keep the catalogue's title; unknown ids stay as they are.
    expect(metricTitle('regression', 'count')).toBe('Count');
    expect(metricTitle('classification', 'macro_f1_score')).toBe('Macro F1');
    expect(metricTitle('classification', 'not_a_metric')).toBe('not_a_metric');
  });
});

describe('comparison rules', () => {
  it('decides the better model by the desired direction, A winning ties', () => {
    expect(betterModel('higher', 0.5, 0.6)).toBe('model_b_is_better');
    expect(betterModel('higher', 0.6, 0.5)).toBe('model_a_is_better');
    expect(betterModel('lower', 0.6, 0.5)).toBe('model_b_is_better');
    expect(betterModel('lower', 0.5, 0.5)).toBe('model_a_is_better');
    expect(betterModel('neutral', 0.5, 0.9)).toBe('model_a_is_better');
    expect(relativeDelta(0.5, 0.6)).toBeCloseTo(20, 12);
    expect(relativeDelta(0, 1)).toBeNaN();
  });

  it('scales scores by 100 except accuracy and equal_error_rate', () => {
    expect(scoreScale('precision')).toBe(100);
    expect(scoreScale('accuracy')).toBe(1);
    expect(scoreScale('equal_error_rate')).toBe(1);
  });
});

describe('formatting', () => {
  it('formats absolute values as docs/product.md, Datasets §9', () => {
    expect(formatMetricValue(0.0004)).toBe('<0.001');
    expect(formatMetricValue(0.12345)).toBe('0.123');
    expect(formatMetricValue(0.5)).toBe('0.5');
    expect(formatMetricValue(1234.56)).toBe('1234.6');
    expect(formatMetricValue(0)).toBe('0');
  });

  it('formats relative values and arrows', () => {
    expect(formatRelativeValue(0.05)).toBe('<0.1%');
    expect(formatRelativeValue(12.345)).toBe('12.3%');
    expect(deltaArrow(-1)).toBe('↓');
    expect(deltaArrow(2)).toBe('↑');
    expect(deltaArrow(0)).toBe('');
  });

  it('formats model-page numbers as docs/product.md, Models §9', () => {
    expect(formatPercentage(0.12345)).toBe('12.35%');
    expect(formatModelNumber(0.00005)).toBe('5e-5');
    expect(formatModelNumber(0.123456789)).toBe('0.1234...');
    expect(formatModelNumber(42)).toBe('42');
  });
});
