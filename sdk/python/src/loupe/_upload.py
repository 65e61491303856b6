"""The upload protocol's engine (docs/sdk-protocol.md), shared by samples, predictions, features
and attributions: batches are cut into request bodies within the client's byte budget, two
requests are in flight, a 413 halves the budget and sends the refused rows again in smaller
pieces, and row errors count from the start of the upload.
"""

from __future__ import annotations

import json
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Dict, Iterable, List, Mapping, NamedTuple, Optional, Set, Tuple

from ._http import LoupeError
from ._protocol import UPLOAD_REQUESTS_IN_FLIGHT


class Row(NamedTuple):
    """One row ready to send."""

    #: Its position in everything given to the upload method.
    index: int
    id: Optional[str]
    #: Its bytes in a request body, with the comma that separates it from the next row.
    size: int
    #: What the body is made of: JSON text, or a feature's float32 bytes.
    data: Any


class Body:
    """A JSON body ``{<fields>, "<key>": [rows]}``; ``brackets="{}"`` makes the rows an object."""

    def __init__(self, key: str, fields: Mapping[str, Any], brackets: str = "[]") -> None:
        start = json.dumps(dict(fields), separators=(",", ":"))[:-1]
        self._head = f"{start}{',' if fields else ''}{json.dumps(key)}:{brackets[0]}"
        self._tail = brackets[1] + "}"
        #: Bytes of the body around its rows.
        self.envelope = len(self._head) + len(self._tail)

    def of(self, rows: List[Row]) -> bytes:
        return (self._head + ",".join(row.data for row in rows) + self._tail).encode("ascii")


class BodyBudget:
    """The most bytes an upload puts in one request body; 413 answers lower it. One per client,
    since the server's limit does not change between uploads."""

    def __init__(self, limit: int) -> None:
        self._limit = max(1, int(limit))
        self._lock = threading.Lock()

    @property
    def limit(self) -> int:
        return self._limit

    def lower(self, refused_bytes: int) -> None:
        """A body of ``refused_bytes`` was answered 413: later bodies stay within half of it."""
        with self._lock:
            self._limit = max(1, min(self._limit, refused_bytes // 2))


class Endpoint(NamedTuple):
    #: Makes the request body for some rows.
    body: Callable[[List[Row]], bytes]
    #: Bytes of a body around its rows.
    envelope: int
    #: Rows one request may carry at most.
    max_rows: int
    #: Posts one body; answers the server's JSON.
    post: Callable[[bytes], Any]


#: A batch's rows and how to send them (a batch's metadata types may differ from the last's).
Batch = Tuple[List[Row], Endpoint]


def body_bytes(envelope: int, rows: List[Row]) -> int:
    return envelope + sum(row.size for row in rows) - 1


def _cut(rows: List[Row], start: int, budget: int, envelope: int, max_rows: int) -> List[Row]:
    """The longest run of rows from ``start`` whose body stays within ``budget``: at least one."""
    size = envelope - 1 + rows[start].size
    end = start + 1
    while end < len(rows) and end - start < max_rows and size + rows[end].size <= budget:
        size += rows[end].size
        end += 1
    return rows[start:end]


def _row_too_large(row: Row, refusal: LoupeError) -> LoupeError:
    message = "this row alone is larger than the server's request body limit"
    return LoupeError(
        413,
        f"Row {row.index}{f' (id {row.id})' if row.id else ''} cannot be sent: {message}. "
        f"{refusal.description} (an administrator can raise LOUPE_BODY_LIMIT_MB)",
        False,
        [{"row": row.index, "id": row.id, "field": "(row)", "message": message}],
    )


def _numbered(error: LoupeError, rows: List[Row]) -> LoupeError:
    """The server numbers a refused request's rows from 0: number them from the upload's start."""
    if not error.errors:
        return error
    renumbered: List[Dict[str, Any]] = []
    for problem in error.errors:
        problem = dict(problem)
        row = problem.get("row")
        if isinstance(row, int):
            problem["row"] = rows[row].index if 0 <= row < len(rows) else row + rows[0].index
        renumbered.append(problem)
    return LoupeError(error.status, error.description, error.retriable, renumbered)


def upload(
    budget: BodyBudget,
    batches: Iterable[Batch],
    landed: Callable[[List[Row], Any], None],
) -> None:
    """Sends the rows of ``batches`` (each prepared on this thread while the requests before it
    are in flight) with up to UPLOAD_REQUESTS_IN_FLIGHT requests at once on background threads,
    each cut to the budget when it starts. ``landed(rows, answer)`` is called once per request
    that landed, one call at a time.

    The first failure stops the upload: no request starts after it, and it is raised once the
    requests still in flight have finished (one of them may still land). A failure while
    preparing a batch is raised the same way.
    """
    lock = threading.Lock()

    def send(rows: List[Row], endpoint: Endpoint) -> None:
        start = 0
        while start < len(rows):
            part = _cut(rows, start, budget.limit, endpoint.envelope, endpoint.max_rows)
            body = endpoint.body(part)
            try:
                answer = endpoint.post(body)
            except LoupeError as error:
                if error.status != 413:
                    raise _numbered(error, part) from None
                if len(part) > 1:
                    budget.lower(len(body))
                    continue
                raise _row_too_large(part[0], error) from None
            with lock:
                landed(part, answer)
            start += len(part)

    in_flight: Set[Future[None]] = set()

    def collect(keep: int) -> None:
        while len(in_flight) > keep:
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in done:
                in_flight.discard(future)
                future.result()  # raises the request's failure

    with ThreadPoolExecutor(UPLOAD_REQUESTS_IN_FLIGHT, thread_name_prefix="loupe-upload") as pool:
        # Leaving the block waits for the requests in flight, whatever stopped the loop.
        for rows, endpoint in batches:
            start = 0
            while start < len(rows):
                collect(UPLOAD_REQUESTS_IN_FLIGHT - 1)
                piece = _cut(rows, start, budget.limit, endpoint.envelope, endpoint.max_rows)
                start += len(piece)
                in_flight.add(pool.submit(send, piece, endpoint))
        collect(0)
