// The Python SDK call that uploads a feature (docs/sdk-python.md, upload_features), for the
// upload-instructions modal.
import type { DataLevel } from '@loupe/contracts';

const EXAMPLE_ID: Record<DataLevel, string> = {
  image: 'frame-001.jpg',
  image_object: 'frame-001.jpg#0',
  audio: 'clip-001.wav',
};

export function uploadFeaturesSnippet(datasetId: string, levels: readonly DataLevel[]): string {
  const lines = [
    'import loupe',
    '',
    'client = loupe.Client()',
    `dataset = client.get_dataset(${JSON.stringify(datasetId)})`,
    '',
    '# One vector per id, all of the same length.',
  ];
  for (const level of levels) {
    lines.push(
      `dataset.upload_features("my-embedding", {${JSON.stringify(EXAMPLE_ID[level])}: [0.12, -0.5, 0.33]}, "${level}")`,
    );
  }
  return lines.join('\n');
}
