"""The client itself: configuration, retries and errors, progress bars, datasets by name."""

from __future__ import annotations

import io
import json
import os
import re
import socket
import tempfile
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, List, Tuple
from unittest import mock

from _support import SRC, ServerTest, loupe, unique
from loupe import _config
from loupe._progress import Progress


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class FakeServer:
    """Answers each request with the next (status, body) of a script, and records requests."""

    def __init__(self, script: List[Tuple[int, dict]]) -> None:
        self.script = list(script)
        self.requests: List[Tuple[str, str, Any]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                owner.requests.append((self.command, self.path, self.headers))
                status, payload = owner.script.pop(0) if owner.script else (500, {})
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                del body

            do_GET = do_POST = do_PUT = do_DELETE = _answer

            def log_message(self, *args) -> None:  # quiet
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "FakeServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class RetryTest(unittest.TestCase):
    def test_no_server_gives_a_clear_connection_error_after_retries(self) -> None:
        url = f"http://127.0.0.1:{closed_port()}"
        client = loupe.Client(url, "key", retries=2, backoff=0.01)
        started = time.monotonic()
        with self.assertRaises(loupe.LoupeConnectionError) as caught:
            client.datasets()
        self.assertLess(time.monotonic() - started, 5)
        message = str(caught.exception)
        self.assertIn(f"Could not reach the Loupe server at {url}", message)
        self.assertIn("after 3 attempts", message)
        self.assertIsInstance(caught.exception, loupe.LoupeError)

    def test_retriable_answers_are_retried(self) -> None:
        script = [
            (503, {"description": "busy", "retriable": True}),
            (429, {"description": "slow down", "retriable": True}),
            (200, [{"id": "x", "name": "ok", "task_type": "classification"}]),
        ]
        with FakeServer(script) as server:
            datasets = loupe.Client(server.url, "key", retries=3, backoff=0.01).datasets()
        self.assertEqual([d.name for d in datasets], ["ok"])
        self.assertEqual(len(server.requests), 3)
        self.assertEqual(server.requests[0][2].get("X-API-Key"), "key")

    def test_client_errors_are_not_retried(self) -> None:
        for status in (400, 401, 403, 404, 413):
            with FakeServer([(status, {"description": f"no ({status})", "retriable": False})]) as s:
                with self.assertRaises(loupe.LoupeError) as caught:
                    loupe.Client(s.url, "key", retries=3, backoff=0.01).datasets()
                self.assertEqual(len(s.requests), 1)
                self.assertEqual(caught.exception.status, status)
                self.assertEqual(caught.exception.description, f"no ({status})")

    def test_a_500_not_marked_retriable_is_not_retried(self) -> None:
        with FakeServer([(500, {"description": "bug", "retriable": False})]) as server:
            with self.assertRaises(loupe.LoupeError):
                loupe.Client(server.url, "key", retries=3, backoff=0.01).datasets()
        self.assertEqual(len(server.requests), 1)

    def test_http_proxy_from_the_environment(self) -> None:
        with FakeServer([(200, [])]) as proxy:
            with mock.patch.dict(os.environ, {"http_proxy": proxy.url, "no_proxy": ""}):
                loupe.Client("http://loupe.internal:8080", "key", retries=0).datasets()
        self.assertEqual(proxy.requests[0][1], "http://loupe.internal:8080/api/datasets")

    def test_retry_budget_runs_out(self) -> None:
        script = [(503, {"description": "busy", "retriable": True})] * 3
        with FakeServer(script) as server:
            with self.assertRaises(loupe.LoupeError) as caught:
                loupe.Client(server.url, "key", retries=2, backoff=0.01).datasets()
        self.assertEqual(caught.exception.status, 503)
        self.assertTrue(caught.exception.retriable)
        self.assertEqual(len(server.requests), 3)


class SetLicenseTest(unittest.TestCase):
    """POST when there is no license, PUT when it expired, nothing when licensed."""

    def attempt(self, state: str) -> Tuple[str, List[Tuple[str, str]]]:
        licensed = {"state": "LICENSED", "key": "k", "expiration_ts": 2_000_000_000}
        script = [(200, {"state": state, "key": "", "expiration_ts": 0}), (200, licensed)]
        with FakeServer(script) as server:
            action, _ = loupe.Client(server.url, "key", retries=0).set_license("new-key")
        return action, [(method, path) for method, path, _ in server.requests]

    def test_unlicensed_posts(self) -> None:
        action, calls = self.attempt("UNLICENSED")
        self.assertEqual(action, "submitted")
        self.assertEqual(calls[1], ("POST", "/api/settings/license"))

    def test_expired_puts(self) -> None:
        action, calls = self.attempt("EXPIRED")
        self.assertEqual(action, "replaced")
        self.assertEqual(calls[1], ("PUT", "/api/settings/license"))

    def test_licensed_sends_nothing(self) -> None:
        action, calls = self.attempt("LICENSED")
        self.assertEqual(action, "unchanged")
        self.assertEqual(calls, [("GET", "/api/settings/license")])


class ErrorMessageTest(unittest.TestCase):
    def test_message_quotes_the_first_row_errors(self) -> None:
        errors = [
            {"row": i, "id": f"{i}.png", "field": "metadata.hour", "message": "bad"}
            for i in range(5)
        ]
        error = loupe.LoupeError(400, "The batch was rejected.", False, errors)
        text = str(error)
        self.assertTrue(text.startswith("[400] The batch was rejected."))
        self.assertIn("row 0 (id 0.png), metadata.hour: bad", text)
        self.assertIn("row 2 (id 2.png)", text)
        self.assertNotIn("row 3 (id 3.png)", text)
        self.assertIn("… and 2 more", text)
        self.assertEqual((error.status, error.retriable, len(error.errors)), (400, False, 5))


class ConfigurationTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        clean = {k: v for k, v in os.environ.items() if k not in ("LOUPE_URL", "LOUPE_API_KEY")}
        clean["XDG_CONFIG_HOME"] = self._tmp.name
        patcher = mock.patch.dict(os.environ, clean, clear=True)
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_nothing_configured(self) -> None:
        with self.assertRaises(loupe.LoupeInputError) as caught:
            loupe.Client()
        self.assertIn("loupe configure", str(caught.exception))

    def test_config_file_then_environment_then_arguments(self) -> None:
        path = _config.write_config("http://from-file:8080", "file-key")
        self.assertEqual(path, Path(self._tmp.name) / "loupe" / "config.json")
        self.assertEqual(loupe.Client().url, "http://from-file:8080")
        self.assertEqual(loupe.Client().api_key, "file-key")
        os.environ["LOUPE_URL"] = "http://from-env:1"
        self.assertEqual(loupe.Client().url, "http://from-env:1")
        self.assertEqual(loupe.Client().api_key, "file-key")
        self.assertEqual(loupe.Client("from-arg:2", "arg-key").url, "http://from-arg:2")


class ProgressTest(unittest.TestCase):
    def test_line_format(self) -> None:
        bar = Progress("uploading samples", 50_000, enabled=True, stream=io.StringIO())
        bar.done = 12_000
        line = bar.line(bar._start + 50)
        self.assertRegex(line, r"^uploading samples  12,000/50,000 \[=====>\s{18}\] 240/s$")

    def test_silent_when_not_a_terminal(self) -> None:
        stream = io.StringIO()
        with Progress("uploading samples", 10, stream=stream) as bar:
            bar.update(10)
        self.assertEqual(stream.getvalue(), "")

    def test_forced_on(self) -> None:
        stream = io.StringIO()
        with Progress("uploading samples", 10, enabled=True, stream=stream) as bar:
            bar.update(10)
        self.assertIn("uploading samples  10/10 [========================]", stream.getvalue())
        self.assertTrue(stream.getvalue().endswith("\n"))


class VersionTest(unittest.TestCase):
    def test_package_version_matches_pyproject(self) -> None:
        text = (SRC.parent / "pyproject.toml").read_text()
        version = re.search(r'^version = "([^"]+)"', text, re.M).group(1)
        self.assertEqual(loupe.__version__, version)


class DatasetsTest(ServerTest):
    def test_get_by_name_and_id_list_and_delete(self) -> None:
        name = unique("lookup")
        created = self.client.create_dataset(name, "classification", class_names=["a"])
        self.assertEqual(self.client.get_dataset(name).id, created.id)
        self.assertEqual(self.client.get_dataset(created.id).name, name)
        self.assertIn(name, [d.name for d in self.client.datasets()])
        same = self.client.create_dataset(name, "classification", exist_ok=True)
        self.assertEqual(same.id, created.id)
        with self.assertRaises(loupe.LoupeError) as caught:
            self.client.create_dataset(name, "classification")
        self.assertEqual(caught.exception.status, 409)
        self.client.delete_dataset(name)
        with self.assertRaises(loupe.LoupeError) as caught:
            self.client.get_dataset(name)
        self.assertEqual(caught.exception.status, 404)

    def test_unknown_task_type(self) -> None:
        with self.assertRaises(loupe.LoupeInputError) as caught:
            self.client.create_dataset(unique("x"), "segmentation")
        self.assertIn("Unknown task type 'segmentation'", str(caught.exception))

    def test_license_and_health(self) -> None:
        self.assertEqual(self.client.license()["state"], "LICENSED")
        self.assertEqual(self.client.health()["status"], "ok")
        self.assertEqual(self.client.state()["user"]["email"], "ana@example.com")


if __name__ == "__main__":
    unittest.main()
