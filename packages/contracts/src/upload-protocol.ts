// The upload protocol's numbers, written once (docs/sdk-protocol.md): what the server takes per
// request, and how both SDKs cut, pipeline and retry their uploads. The server's schemas and the
// TypeScript SDK import them; the Python SDK's copies are checked against this file by a test, so
// keep each one a plain `export const NAME = number;` line. This module imports nothing, so any
// other contract may import it. Two related limits live beside the code that applies them:
// MAX_BATCH_ERRORS and MAX_MEDIA_BYTES (upload-rows.ts).

// ---- what the server takes in one request

/** Samples per POST /api/datasets/{id}/samples, and predictions per …/predictions/{set}/items. */
export const MAX_ROWS_PER_REQUEST = 20_000;
/** Heatmaps per POST …/predictions/{set}/attributions. */
export const MAX_ATTRIBUTIONS_PER_REQUEST = 5_000;
/** Item ids per POST /api/datasets/{id}/features in the binary form (`ids`, `data`, `dimension`). */
export const MAX_FEATURE_IDS_PER_REQUEST = 500_000;
/** Vectors per POST /api/datasets/{id}/features in the JSON form (`vectors`). */
export const MAX_FEATURE_VECTORS_PER_REQUEST = 200_000;
/** Keys per POST /api/datasets/{id}/media/missing. */
export const MAX_MISSING_MEDIA_KEYS = 100_000;

// ---- what a client does

/** Samples or predictions read, prepared (media uploaded) and sent as one batch, by default. */
export const UPLOAD_BATCH_ROWS = 1_000;
/** Attributions per batch, by default (a heatmap given as numbers is large). */
export const UPLOAD_ATTRIBUTION_BATCH_ROWS = 500;
/**
 * The most bytes a client puts in one request body (its UTF-8 JSON). A batch over it is sent as
 * several requests; a 413 lowers it to half the refused body's size for the rest of the client's
 * life. One row larger than the budget is still sent, alone.
 */
export const UPLOAD_BODY_BUDGET_BYTES = 8 * 1024 * 1024;
/** Requests of one upload posted at once: the server parses one while its database stores the other. */
export const UPLOAD_REQUESTS_IN_FLIGHT = 2;
/** Media files uploaded at once. */
export const UPLOAD_MEDIA_IN_FLIGHT = 4;
/** Retries of a request that failed in a way that may pass later (after the first attempt). */
export const UPLOAD_RETRIES = 5;
/** The first wait before a retry; it doubles each time (± 25 % jitter). */
export const UPLOAD_BACKOFF_MS = 1_000;
/** The longest wait before a retry, also for a server's Retry-After. */
export const UPLOAD_MAX_BACKOFF_MS = 30_000;
/** A request with no answer after this long counts as a connection failure. */
export const UPLOAD_TIMEOUT_MS = 300_000;
/** Statuses retried when the answer is not the server's JSON (a proxy in front of it answered). */
export const RETRIABLE_STATUSES_WITHOUT_BODY = [429, 502, 503, 504];
