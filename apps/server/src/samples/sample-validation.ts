// The row checks of sample and prediction uploads. They live in @loupe/contracts (upload-rows.ts)
// so the `loupe` CLI checks a folder exactly the way the server will; the service takes them here.
export {
  RESERVED_METADATA,
  checkPredictionBatch,
  checkSampleBatch,
  closestKey,
  polygonBbox,
  type DatasetShape,
  type SampleBatchCheck,
  type ValidatedObject,
  type ValidatedPrediction,
  type ValidatedSample,
} from '@loupe/contracts';
