// Embeddings helpers shared by the embeddings journeys.
import { api, type EmbeddingPointsResponse } from '@loupe/contracts';
import type { ApiSession } from './api';

export /**
 * Asks for the points as the map does, every 3000 ms while they are computing; coloured by the
 * label unless told otherwise (null: uncoloured, for tasks without a sample label).
 */
async function readyPoints(
  session: ApiSession,
  datasetId: string,
  timeoutMs = 240_000,
  colorBy: string | null = 'label',
): Promise<EmbeddingPointsResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await session.call(api.embeddings.points, {
      params: { id: datasetId },
      body: { data_level: 'image', color_by: colorBy },
    });
    if (answer.status !== 'computing') return answer;
    if (Date.now() > deadline) throw new Error('Embedding points still computing');
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}
