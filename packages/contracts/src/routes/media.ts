// Media files: uploaded as raw bodies (resumable: ask which are missing first), then served by
// their sha256, and the thumbnails (an audio sample's is its spectrogram).
import {
  DatasetIdParams,
  MediaParams,
  MediaUploadResult,
  MissingMediaRequest,
  MissingMediaResult,
  ThumbnailParams,
  ThumbnailQuery,
} from '../datasets.js';
import { defineRoute, raw } from './define.js';

const common = { auth: 'user', tags: ['datasets'] } as const;

export const media = {
  upload: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/media',
    params: DatasetIdParams,
    body: raw('image/*, audio/* or application/octet-stream'),
    responses: { 200: MediaUploadResult },
    errors: [400, 401, 403, 404, 413, 415],
    license: true,
    summary:
      'Upload one media file as the raw request body (Content-Type image/* or audio/*; SVG is refused); answers its blob key',
  }),
  missing: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/media/missing',
    params: DatasetIdParams,
    body: MissingMediaRequest,
    responses: { 200: MissingMediaResult },
    errors: [400, 401, 404],
    license: false,
    summary: 'Which of these blob keys are not uploaded yet (for resuming)',
  }),
  file: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/media/:sha',
    params: MediaParams,
    responses: raw('the media type of the file'),
    errors: [],
    license: false,
    summary: 'An uploaded media file (supports Range)',
  }),
  thumbnail: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/thumbnails/:base',
    params: ThumbnailParams,
    query: ThumbnailQuery,
    responses: raw('image/webp'),
    errors: [],
    license: false,
    summary:
      "A sample's WebP thumbnail, at most 512 px (a small uploaded image is its own thumbnail: its thumbnail URL is then the media's)",
  }),
};
