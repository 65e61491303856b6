"""The upload protocol's numbers (docs/sdk-protocol.md in the Loupe repository).

They are the same as ``packages/contracts/src/upload-protocol.ts``, which the server and the
TypeScript SDK import; a test of this package compares the two files and the server's OpenAPI
document, so change them together.
"""

from __future__ import annotations

from typing import FrozenSet

# ---- what the server takes in one request

#: Samples per POST /api/datasets/{id}/samples, and predictions per …/predictions/{set}/items.
MAX_ROWS_PER_REQUEST = 20_000
#: Heatmaps per POST …/predictions/{set}/attributions.
MAX_ATTRIBUTIONS_PER_REQUEST = 5_000
#: Item ids per POST /api/datasets/{id}/features in the binary form.
MAX_FEATURE_IDS_PER_REQUEST = 500_000
#: Vectors per POST /api/datasets/{id}/features in the JSON form.
MAX_FEATURE_VECTORS_PER_REQUEST = 200_000
#: Keys per POST /api/datasets/{id}/media/missing.
MAX_MISSING_MEDIA_KEYS = 100_000

# ---- what a client does

#: Samples or predictions read, prepared (media uploaded) and sent as one batch, by default.
UPLOAD_BATCH_ROWS = 1_000
#: Attributions per batch, by default.
UPLOAD_ATTRIBUTION_BATCH_ROWS = 500
#: The most bytes a client puts in one request body; a 413 lowers it to half the refused body.
UPLOAD_BODY_BUDGET_BYTES = 8 * 1024 * 1024
#: Requests of one upload posted at once.
UPLOAD_REQUESTS_IN_FLIGHT = 2
#: Media files uploaded at once.
UPLOAD_MEDIA_IN_FLIGHT = 4
#: Retries of a request that failed in a way that may pass later (after the first attempt).
UPLOAD_RETRIES = 5
#: The first wait before a retry, in seconds; it doubles each time (± 25 % jitter).
UPLOAD_BACKOFF_S = 1.0
#: The longest wait before a retry, also for a server's Retry-After, in seconds.
UPLOAD_MAX_BACKOFF_S = 30.0
#: A request with no answer after this many seconds counts as a connection failure.
UPLOAD_TIMEOUT_S = 300.0
#: Statuses retried when the answer is not the server's JSON (a proxy in front of it answered).
RETRIABLE_STATUSES_WITHOUT_BODY: FrozenSet[int] = frozenset({429, 502, 503, 504})
