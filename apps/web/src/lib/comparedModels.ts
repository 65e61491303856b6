// The two models of a comparison as the explorer, its grid cards and the item viewer draw them
// (docs/model-comparison.md, "The explorer in a comparison (web)"): which of an item's two
// predictions is model A's, the colour each model is drawn in, and a prediction as a short text.
// Shared by the explore and item-viewer features, so A and B look the same everywhere.
import type {
  ExploreComparison,
  ExploreItem,
  ExploreObject,
  ItemPrediction,
} from '@loupe/contracts';
import { theme } from 'antd';

export type ComparedModelKey = 'A' | 'B';

export interface ComparedModel {
  key: ComparedModelKey;
  /** The prediction set's id. */
  id: string;
  /** The prediction set's name, or its id until the models are loaded. */
  name: string;
  /** The colour its predicted boxes, masks and tags are drawn in. */
  color: string;
}

/** The comparison the explorer is in: what its requests carry and the two models, A then B. */
export interface ComparedModels {
  request: ExploreComparison;
  /** The model whose explorer this is (the route's prediction set): A or B. */
  own: ComparedModelKey;
  a: ComparedModel;
  b: ComparedModel;
}

/** One model's prediction of an item: its sample-level prediction and its predicted objects. */
export interface ComparedSide {
  model: ComparedModel;
  prediction: ItemPrediction | null;
  objects: ExploreObject[];
}

/**
 * Model A's and model B's predictions of an item, A first. The item's own `prediction` and
 * predicted objects are those of the explorer's model; `compared_prediction` holds the other's.
 * Two prediction sets may number their objects alike (ids such as 'pred:frame.png#0' in both), so
 * an object of the other model whose id the own model also has is renamed '<its key>:<id>': the
 * viewer and the cards tell objects apart by id (colour, chip, visibility, selection).
 */
export function comparedSides(
  item: ExploreItem,
  models: ComparedModels,
): [ComparedSide, ComparedSide] {
  const own = {
    prediction: item.prediction,
    objects: item.objects.filter((object) => object.type === 'pred'),
  };
  const ownIds = new Set(own.objects.map((object) => object.id));
  const otherKey = models.own === 'A' ? models.b.key : models.a.key;
  const other = {
    prediction: item.compared_prediction?.prediction ?? null,
    objects: (item.compared_prediction?.objects ?? []).map((object) =>
      ownIds.has(object.id) ? { ...object, id: `${otherKey}:${object.id}` } : object,
    ),
  };
  const [a, b] = models.own === 'A' ? [own, other] : [other, own];
  return [
    { model: models.a, ...a },
    { model: models.b, ...b },
  ];
}

/** Model A's and model B's colours, from the theme's preset palette (distinct from each other). */
export function useComparedColors(): Record<ComparedModelKey, string> {
  const { token } = theme.useToken();
  return { A: token.blue, B: token.orange };
}

const number = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/**
 * A sample-level prediction in a few words: 'cat 0.91' (label and score), 'age: 31.20' (values),
 * or null when the prediction has neither (objects, transcripts and label maps are drawn).
 */
export function predictionText(prediction: ItemPrediction | null): string | null {
  if (!prediction) return null;
  if (prediction.label !== null) {
    return prediction.score === null
      ? prediction.label
      : `${prediction.label} ${prediction.score.toFixed(2)}`;
  }
  if (prediction.values) {
    const entries = Object.entries(prediction.values);
    if (entries.length > 0) {
      return entries.map(([name, value]) => `${name}: ${number(value)}`).join(', ');
    }
  }
  return null;
}
