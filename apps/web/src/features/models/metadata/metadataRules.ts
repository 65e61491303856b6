// Where a metadata field of the model metadata page leads: the model's explorer at the field's
// data level, coloured by the field and sorted by it, largest first, with every item of the level
// selected so the embeddings map highlights them (the explorer's URL state).
import type { DataLevel } from '@loupe/contracts';

export function exploreByField(
  datasetId: string,
  predictionSetId: string,
  dataLevel: DataLevel,
  metadataId: string,
): string {
  const search = new URLSearchParams({
    level: dataLevel,
    color: metadataId,
    sort: JSON.stringify([{ name: metadataId, direction: 'descending' }]),
    select: 'all',
  });
  return `/models/datasets/${encodeURIComponent(datasetId)}/predictions/${encodeURIComponent(predictionSetId)}/explore?${search.toString()}`;
}
