"""HTTP transport of the Loupe client: JSON requests with the API key, retries and errors.

Every call goes through :class:`Transport.request`. Connection failures and answers the server
marks ``retriable`` (5xx, 429) are retried with exponential backoff; other 4xx answers are raised
at once as :class:`LoupeError` carrying the server's description and, for rejected batches, the
row errors.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ._version import __version__

RowError = Dict[str, Any]

#: How many row errors a LoupeError message quotes.
QUOTED_ROW_ERRORS = 3


def format_row_error(error: Mapping[str, Any]) -> str:
    """``row 3 (id x.png), metadata.hour: expected a numeric value …``"""
    where = f"row {error.get('row')}"
    if error.get("id") is not None:
        where += f" (id {error['id']})"
    return f"{where}, {error.get('field', '(row)')}: {error.get('message', '')}"


class LoupeError(Exception):
    """An error answered by the Loupe server, or found before sending anything.

    Attributes:
        status: the HTTP status (0 when nothing was answered, e.g. a connection failure or a
            problem found on this side).
        description: the server's explanation.
        retriable: whether trying again later may succeed.
        errors: for a rejected batch, one ``{row, id, field, message}`` per problem; ``row`` is
            the 0-based position in the iterable given to the upload method.
    """

    def __init__(
        self,
        status: int,
        description: str,
        retriable: bool = False,
        errors: Optional[List[RowError]] = None,
    ) -> None:
        self.status = status
        self.description = description
        self.retriable = retriable
        self.errors: List[RowError] = list(errors or [])
        super().__init__(self._message())

    def _message(self) -> str:
        message = self.description
        if self.errors:
            quoted = [format_row_error(e) for e in self.errors[:QUOTED_ROW_ERRORS]]
            more = len(self.errors) - len(quoted)
            message += "\n  " + "\n  ".join(quoted)
            if more > 0:
                message += f"\n  … and {more} more"
        if self.status:
            message = f"[{self.status}] {message}"
        return message

    def __reduce__(self) -> Tuple[Any, ...]:  # keeps the exception picklable (multiprocessing, concurrent.futures)
        return (type(self), (self.status, self.description, self.retriable, self.errors))


class LoupeConnectionError(LoupeError):
    """The server could not be reached (after retrying)."""

    def __init__(self, description: str) -> None:
        super().__init__(0, description, retriable=True)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.description,))


class LoupeInputError(LoupeError, ValueError):
    """Bad input found on this side before anything was sent (a missing file, a bad folder…)."""

    def __init__(self, description: str, errors: Optional[List[RowError]] = None) -> None:
        super().__init__(0, description, retriable=False, errors=errors)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.description, self.errors))


_CONNECTION_ERRORS = (
    urllib.error.URLError,
    ConnectionError,
    socket.timeout,
    TimeoutError,
    http.client.RemoteDisconnected,
    http.client.IncompleteRead,
    http.client.BadStatusLine,
)

#: Statuses retried when the answer is not Loupe's JSON (a proxy in front of the server).
_RETRIABLE_WITHOUT_BODY = {429, 502, 503, 504}


class Transport:
    """Sends requests to one Loupe server with one API key, retrying what may succeed later."""

    def __init__(
        self,
        url: str,
        api_key: Optional[str],
        *,
        timeout: float = 300.0,
        retries: int = 5,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
    ) -> None:
        self.url = url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.retries = max(0, int(retries))
        self.backoff = backoff
        self.max_backoff = max_backoff

    def _delay(self, attempt: int, retry_after: Optional[str] = None) -> float:
        if retry_after:
            try:
                return float(min(self.max_backoff, max(0.0, float(retry_after))))
            except ValueError:
                pass
        base = min(self.max_backoff, self.backoff * (2**attempt))
        return float(base * (0.75 + random.random() / 2))  # jitter: parallel uploads do not align

    def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        body: Optional[bytes] = None,
        content_type: Optional[str] = None,
        query: Optional[Mapping[str, Any]] = None,
        authenticate: bool = True,
    ) -> Any:
        """Sends one request and answers the decoded JSON (None for an empty body).

        Raises LoupeError for an error answer, LoupeConnectionError when the server cannot be
        reached after the retries.
        """
        url = self.url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        headers = {"Accept": "application/json", "User-Agent": f"loupe-python/{__version__}"}
        if json_body is not None:
            body = json.dumps(json_body, allow_nan=False, separators=(",", ":")).encode("utf-8")
            content_type = "application/json"
        if content_type:
            headers["Content-Type"] = content_type
        if authenticate and self.api_key:
            headers["X-API-Key"] = self.api_key

        attempt = 0
        while True:
            request = urllib.request.Request(url, data=body, headers=headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    raw = response.read()
                return json.loads(raw) if raw else None
            except urllib.error.HTTPError as answer:
                error = self._error_from(answer)
                retry_after = answer.headers.get("Retry-After") if answer.headers else None
                if not error.retriable or attempt >= self.retries:
                    raise error from None
            except _CONNECTION_ERRORS as failure:
                if attempt >= self.retries:
                    reason = getattr(failure, "reason", None) or failure
                    tries = attempt + 1
                    raise LoupeConnectionError(
                        f"Could not reach the Loupe server at {self.url} ({reason}) after "
                        f"{tries} attempt{'s' if tries != 1 else ''}. Is it running, and is the "
                        "URL right (LOUPE_URL, or `loupe configure --url …`)?"
                    ) from None
                retry_after = None
            time.sleep(self._delay(attempt, retry_after))
            attempt += 1

    @staticmethod
    def _error_from(answer: urllib.error.HTTPError) -> LoupeError:
        status = answer.code
        try:
            raw = answer.read()
        except Exception:  # the body may be cut short; the status still says enough
            raw = b""
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            payload = None
        if isinstance(payload, dict) and isinstance(payload.get("description"), str):
            return LoupeError(
                status,
                payload["description"],
                bool(payload.get("retriable", False)),
                payload.get("errors") if isinstance(payload.get("errors"), list) else None,
            )
        text = raw.decode("utf-8", "replace").strip()[:500]
        description = f"{answer.reason or 'HTTP error'}" + (f": {text}" if text else "")
        return LoupeError(status, description, status in _RETRIABLE_WITHOUT_BODY)
