"""Shared helpers of the SDK tests: a client for the live test server, unique names, and tiny
PNG and WAV files made on the spot.

The server comes from scripts/test-python-sdk.mjs, which sets LOUPE_URL, LOUPE_API_KEY and
LOUPE_TEST_LICENSE_KEY. Tests needing it are skipped with a reason when LOUPE_URL is unset.
"""

from __future__ import annotations

import io
import os
import struct
import sys
import tempfile
import unittest
import uuid
import wave
import zlib
from pathlib import Path
from typing import List, Tuple

SRC = Path(__file__).resolve().parents[1] / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

import loupe  # noqa: E402

SERVER = os.environ.get("LOUPE_URL")
LICENSE_KEY = os.environ.get("LOUPE_TEST_LICENSE_KEY")
BODY_LIMIT_MB = float(os.environ.get("LOUPE_TEST_BODY_LIMIT_MB") or 64)

#: For tests that send requests over the server's body limit (the test runner sets it to 2 MB).
small_body_limit = unittest.skipUnless(
    BODY_LIMIT_MB <= 8,
    "needs a server with a small body limit (LOUPE_BODY_LIMIT_MB, LOUPE_TEST_BODY_LIMIT_MB ≤ 8)",
)


def png(width: int = 4, height: int = 3, rgb: Tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """A solid-colour RGB PNG."""
    row = b"\x00" + bytes(rgb) * width
    raw = row * height
    return _png(width, height, 2, raw)


def grey_png(pixels: List[List[int]]) -> bytes:
    """An 8-bit greyscale PNG (a semantic segmentation mask: pixel value = class index)."""
    height, width = len(pixels), len(pixels[0])
    raw = b"".join(b"\x00" + bytes(row) for row in pixels)
    return _png(width, height, 0, raw)


def wav(samples: int = 800, rate: int = 8000, level: int = 1000) -> bytes:
    """A mono 16-bit WAV with a square wave (``level`` varies the bytes)."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        frames = b"".join(
            struct.pack("<h", level if (i // 20) % 2 else -level) for i in range(samples)
        )
        out.writeframes(frames)
    return buffer.getvalue()


def unique(prefix: str) -> str:
    """A dataset name no other test uses."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


_licensed = False


def client(**kwargs) -> loupe.Client:
    """A client of the test server; the instance is licensed on first use."""
    global _licensed
    made = loupe.Client(SERVER, os.environ.get("LOUPE_API_KEY"), progress=False, **kwargs)
    if not _licensed and LICENSE_KEY:
        made.set_license(LICENSE_KEY)
        _licensed = True
    return made


@unittest.skipUnless(SERVER, "LOUPE_URL is not set: run node scripts/test-python-sdk.mjs")
class ServerTest(unittest.TestCase):
    """A test against the live server, with a temporary folder and dataset cleanup."""

    client: loupe.Client

    def setUp(self) -> None:
        self.client = client()
        self.addCleanup(self.client.close)
        self._tmp = tempfile.TemporaryDirectory(prefix="loupe-sdk-test-")
        self.tmp = Path(self._tmp.name)
        self.addCleanup(self._tmp.cleanup)

    def dataset(self, prefix: str, task: str, **kwargs) -> loupe.Dataset:
        """A new dataset with a unique name, deleted after the test."""
        dataset = self.client.create_dataset(unique(prefix), task, **kwargs)
        self.addCleanup(self._delete, dataset)
        return dataset

    def _delete(self, dataset: loupe.Dataset) -> None:
        try:
            dataset.delete()
        except loupe.LoupeError:
            pass

    def write(self, name: str, data: bytes) -> Path:
        """Writes a file under the test's temporary folder and answers its path."""
        path = self.tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path


def _png(width: int, height: int, colour_type: int, raw: bytes) -> bytes:
    """An 8-bit PNG of filtered scanlines `raw` (colour type 0 grey, 2 RGB)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        return struct.pack(">I", len(data)) + kind + data + crc

    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
