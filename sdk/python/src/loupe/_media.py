"""Media references in uploads: local files and bytes become content-addressed ``blob:`` keys.

A sample's ``image``/``audio``/``mask`` (and a heatmap) may be a local path (``str`` or
``pathlib.Path``), raw ``bytes``, an ``http(s)://`` URL, a ``blob:<sha256>`` key, or a
:class:`ServerPath` naming a file the server itself reads. Local files and bytes are hashed here
(the server's key is ``blob:`` + sha256 of the bytes), so only those the server lacks are sent.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

BLOB_PREFIX = "blob:"
_CHUNK = 1 << 20


class ServerPath(str):
    """A path on the server's disk (under its LOUPE_MEDIA_ROOTS), sent as it is, not uploaded."""


MediaLike = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, ServerPath]


@dataclass
class LocalMedia:
    """Bytes to upload: from a file (read when sent) or given directly."""

    key: str
    content_type: str
    path: Optional[Path] = None
    data: Optional[bytes] = None

    def read(self) -> bytes:
        if self.data is not None:
            return self.data
        assert self.path is not None
        return self.path.read_bytes()


def is_remote(ref: str) -> bool:
    """True for references the server resolves itself: URLs and blob keys."""
    lower = ref[:8].lower()
    return lower.startswith("http://") or lower.startswith("https://") or ref.startswith(BLOB_PREFIX)


def sniff_content_type(head: bytes) -> str:
    """The media type of bytes from their first few bytes; application/octet-stream if unknown."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "image/webp"
    if head.startswith(b"RIFF") and head[8:12] == b"WAVE":
        return "audio/wav"
    if head.startswith(b"BM"):
        return "image/bmp"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "image/tiff"
    if head.startswith(b"fLaC"):
        return "audio/flac"
    if head.startswith(b"OggS"):
        return "audio/ogg"
    if head.startswith(b"ID3") or head[:2] in (b"\xff\xfb", b"\xff\xf3", b"\xff\xf2"):
        return "audio/mpeg"
    return "application/octet-stream"


def _content_type(path: Path, head: bytes) -> str:
    sniffed = sniff_content_type(head)
    if sniffed != "application/octet-stream":
        return sniffed
    guessed, _ = mimetypes.guess_type(path.name)
    if guessed and (guessed.startswith("image/") or guessed.startswith("audio/")):
        return guessed
    return "application/octet-stream"


def local_media(value: MediaLike, base_dir: Optional[Path] = None) -> Optional[LocalMedia]:
    """The upload a media value needs, or None when it is sent as it is (URL, blob key, ServerPath).

    Raises FileNotFoundError for a path that names no file, TypeError for other types.
    """
    if isinstance(value, ServerPath):
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        if not data:
            raise ValueError("empty bytes")
        digest = hashlib.sha256(data).hexdigest()
        return LocalMedia(BLOB_PREFIX + digest, sniff_content_type(data[:16]), data=data)
    if isinstance(value, str) and is_remote(value):
        return None
    if isinstance(value, (str, os.PathLike)):
        path = Path(value).expanduser()
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        if not path.is_file():
            raise FileNotFoundError(f"no such file: {str(path)!r}")
        hasher = hashlib.sha256()
        head = b""
        with path.open("rb") as handle:
            while True:
                chunk = handle.read(_CHUNK)
                if not chunk:
                    break
                if not head:
                    head = chunk[:16]
                hasher.update(chunk)
        if not head:
            raise ValueError(f"empty file: {str(path)!r}")
        return LocalMedia(BLOB_PREFIX + hasher.hexdigest(), _content_type(path, head), path=path)
    raise TypeError(
        f"expected a path, bytes or a URL, got {type(value).__name__}"
    )
