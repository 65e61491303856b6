"""HTTP transport of the Loupe client: JSON requests with the API key, retries and errors.

Every call goes through :class:`Transport.request`. Connection failures and answers the server
marks ``retriable`` (5xx, 429) are retried with exponential backoff; other 4xx answers are raised
at once as :class:`LoupeError` carrying the server's description and, for rejected batches, the
row errors.
"""

from __future__ import annotations

import base64
import http.client
import json
import random
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request
from typing import Any, BinaryIO, Dict, List, Mapping, Optional, Tuple, cast

from ._protocol import (
    RETRIABLE_STATUSES_WITHOUT_BODY,
    UPLOAD_BACKOFF_S,
    UPLOAD_MAX_BACKOFF_S,
    UPLOAD_RETRIES,
    UPLOAD_TIMEOUT_S,
)
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
    OSError,  # ConnectionError, socket.timeout, TimeoutError, ssl.SSLError, name resolution…
    http.client.HTTPException,  # RemoteDisconnected, IncompleteRead, BadStatusLine…
)



class _Answer:
    """A finished HTTP exchange."""

    def __init__(self, status: int, reason: str, headers: Any, body: bytes) -> None:
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body


class Transport:
    """Sends requests to one Loupe server with one API key, retrying what may succeed later.

    Each thread keeps one keep-alive connection. ``http_proxy``/``https_proxy``/``no_proxy``
    are honoured like urllib does; TLS uses the system's certificates (``SSL_CERT_FILE`` to add
    your own).
    """

    def __init__(
        self,
        url: str,
        api_key: Optional[str],
        *,
        timeout: float = UPLOAD_TIMEOUT_S,
        retries: int = UPLOAD_RETRIES,
        backoff: float = UPLOAD_BACKOFF_S,
        max_backoff: float = UPLOAD_MAX_BACKOFF_S,
    ) -> None:
        self.url = url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.retries = max(0, int(retries))
        self.backoff = backoff
        self.max_backoff = max_backoff
        parts = urllib.parse.urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self._scheme = parts.scheme
        self._host = parts.hostname
        self._port = parts.port or (443 if parts.scheme == "https" else 80)
        self._base_path = parts.path.rstrip("/")
        self._local = threading.local()
        self._open: List[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    # ---- connections

    def _proxy(self) -> Optional[urllib.parse.SplitResult]:
        proxy = urllib.request.getproxies().get(self._scheme)
        if not proxy or urllib.request.proxy_bypass(f"{self._host}:{self._port}"):
            return None
        if "://" not in proxy:
            proxy = "http://" + proxy
        return urllib.parse.urlsplit(proxy)

    def _connect(self) -> Tuple[http.client.HTTPConnection, bool, Dict[str, str]]:
        """This thread's connection, whether it goes through an HTTP proxy, and proxy headers."""
        cached = getattr(self._local, "connection", None)
        if cached is not None:
            return cast(Tuple[http.client.HTTPConnection, bool, Dict[str, str]], cached)
        proxy = self._proxy()
        extra: Dict[str, str] = {}
        via_proxy = False
        connection: http.client.HTTPConnection
        if proxy is not None and proxy.hostname:
            if proxy.username:
                token = base64.b64encode(
                    f"{urllib.parse.unquote(proxy.username)}:"
                    f"{urllib.parse.unquote(proxy.password or '')}".encode()
                ).decode()
                extra["Proxy-Authorization"] = f"Basic {token}"
            proxy_port = proxy.port or 8080
            if self._scheme == "https":
                connection = http.client.HTTPSConnection(
                    proxy.hostname, proxy_port, timeout=self.timeout,
                    context=ssl.create_default_context(),
                )
                connection.set_tunnel(self._host, self._port, headers=extra)
                extra = {}
            else:
                connection = http.client.HTTPConnection(
                    proxy.hostname, proxy_port, timeout=self.timeout
                )
                via_proxy = True
        elif self._scheme == "https":
            connection = http.client.HTTPSConnection(
                self._host, self._port, timeout=self.timeout, context=ssl.create_default_context()
            )
        else:
            connection = http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)
        made = (connection, via_proxy, extra)
        self._local.connection = made
        self._local.used = False
        with self._lock:
            self._open.append(connection)
        return made

    def _drop(self) -> None:
        cached = getattr(self._local, "connection", None)
        if cached is not None:
            cached[0].close()
            with self._lock:
                if cached[0] in self._open:
                    self._open.remove(cached[0])
        self._local.connection = None

    def close(self) -> None:
        """Closes every open connection; the next request opens a new one."""
        with self._lock:
            connections, self._open = self._open, []
        for connection in connections:
            connection.close()
        self._local = threading.local()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def _exchange(
        self,
        method: str,
        target: str,
        body: Optional[bytes],
        headers: Dict[str, str],
        keep_alive: bool,
    ) -> _Answer:
        """One request on this thread's connection; a stale keep-alive connection is reopened
        once without counting as a failure."""
        for fresh_try in (False, True):
            connection, via_proxy, extra = self._connect()
            reused = bool(getattr(self._local, "used", False))
            path = f"{self._scheme}://{self._host}:{self._port}{target}" if via_proxy else target
            try:
                try:
                    connection.request(method, path, body=body, headers={**headers, **extra})
                except (BrokenPipeError, ConnectionResetError):
                    # The server may have answered already (e.g. 413 for a body over its limit)
                    # and stopped reading; its answer is still there to read.
                    pass
                response = connection.getresponse()
                data = response.read()
                self._local.used = True
                if response.will_close or not keep_alive:
                    self._drop()
                return _Answer(response.status, response.reason, response.headers, data)
            except _CONNECTION_ERRORS:
                self._drop()
                if reused and not fresh_try:
                    continue  # the server closed an idle keep-alive connection: reopen it
                raise
        raise AssertionError("unreachable")

    # ---- requests

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
        keep_alive: bool = True,
    ) -> Any:
        """Sends one request and answers the decoded JSON (None for an empty body).

        ``keep_alive=False`` closes the connection afterwards (for short-lived worker threads).
        Raises LoupeError for an error answer, LoupeConnectionError when the server cannot be
        reached after the retries.
        """
        target = self._base_path + path
        if query:
            target += "?" + urllib.parse.urlencode(
                {k: v for k, v in query.items() if v is not None}
            )
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
            retry_after: Optional[str] = None
            try:
                answer = self._exchange(method, target, body, headers, keep_alive)
            except _CONNECTION_ERRORS as failure:
                if attempt >= self.retries:
                    tries = attempt + 1
                    raise LoupeConnectionError(
                        f"Could not reach the Loupe server at {self.url} ({_describe(failure)}) "
                        f"after {tries} attempt{'s' if tries != 1 else ''}. Is it running, and "
                        "is the URL right (LOUPE_URL, or `loupe configure --url …`)?"
                    ) from None
            else:
                if answer.status < 400:
                    return json.loads(answer.body) if answer.body else None
                error = self._error_from(answer)
                if not error.retriable or attempt >= self.retries:
                    raise error from None
                retry_after = answer.headers.get("Retry-After")
            time.sleep(self._delay(attempt, retry_after))
            attempt += 1

    def download(
        self,
        method: str,
        path: str,
        sink: BinaryIO,
        *,
        json_body: Any = None,
        query: Optional[Mapping[str, Any]] = None,
    ) -> Mapping[str, str]:
        """Sends one request and streams a successful answer's body into ``sink`` (a file opened
        for binary writing); answers the response headers. A read that waits longer than the
        client's timeout fails. What :meth:`request` retries is retried, the sink emptied first.
        """
        target = self._base_path + path
        if query:
            target += "?" + urllib.parse.urlencode(
                {k: v for k, v in query.items() if v is not None}
            )
        headers = {"Accept": "*/*", "User-Agent": f"loupe-python/{__version__}"}
        body: Optional[bytes] = None
        if json_body is not None:
            body = json.dumps(json_body, allow_nan=False, separators=(",", ":")).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["X-API-Key"] = self.api_key
        attempt = 0
        while True:
            retry_after: Optional[str] = None
            sink.seek(0)
            sink.truncate()
            # A connection of its own, closed afterwards: a download may be cut off midway.
            connection, via_proxy, extra = self._connect()
            self._local.connection = None
            with self._lock:
                if connection in self._open:
                    self._open.remove(connection)
            request_path = (
                f"{self._scheme}://{self._host}:{self._port}{target}" if via_proxy else target
            )
            try:
                connection.request(method, request_path, body=body, headers={**headers, **extra})
                response = connection.getresponse()
                if response.status < 400:
                    while True:
                        chunk = response.read(1 << 20)
                        if not chunk:
                            break
                        sink.write(chunk)
                    return dict(response.headers.items())
                answer = _Answer(
                    response.status, response.reason, response.headers, response.read()
                )
            except _CONNECTION_ERRORS as failure:
                if attempt >= self.retries:
                    raise LoupeConnectionError(
                        f"The download from {self.url} failed ({_describe(failure)}) after "
                        f"{attempt + 1} attempt{'s' if attempt else ''}."
                    ) from None
            else:
                error = self._error_from(answer)
                if not error.retriable or attempt >= self.retries:
                    raise error from None
                retry_after = answer.headers.get("Retry-After")
            finally:
                connection.close()
            time.sleep(self._delay(attempt, retry_after))
            attempt += 1

    @staticmethod
    def _error_from(answer: _Answer) -> LoupeError:
        status = answer.status
        raw = answer.body
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
        return LoupeError(status, description, status in RETRIABLE_STATUSES_WITHOUT_BODY)


def _describe(failure: BaseException) -> str:
    """A short reason for a connection failure: 'Connection refused', 'timed out', …"""
    if isinstance(failure, socket.gaierror):
        return f"cannot resolve the host name: {failure.strerror or failure}"
    if isinstance(failure, OSError) and failure.strerror:
        return failure.strerror
    return str(failure) or type(failure).__name__
