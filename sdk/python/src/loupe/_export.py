"""Exports: a subset, or chosen items, downloaded as a zip of the COCO or CSV folder layout and
unpacked into an empty folder (docs/formats.md, "Exporting"). The zip goes to a temporary file
first, so nothing is held whole in memory."""

from __future__ import annotations

import os
import re
import tempfile
import urllib.parse
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any, Dict, Mapping, Optional, Union

from ._http import LoupeInputError, Transport

FORMATS = ("coco", "csv")


class OutputNotEmpty(LoupeInputError):
    """The output folder has files in it: an export never mixes with other files."""

    def __init__(self, out: Path) -> None:
        super().__init__(f"{out} is not empty: export into an empty or new folder.")
        self.out = out


def require_empty_folder(out: Union[str, Path]) -> Path:
    """The folder as a Path; raises OutputNotEmpty when it exists with anything in it (or is a
    file)."""
    path = Path(out).expanduser()
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise OutputNotEmpty(path)
    return path


def _filename(headers: Mapping[str, str]) -> str:
    disposition = next((v for k, v in headers.items() if k.lower() == "content-disposition"), "")
    encoded = re.search(r"filename\*=UTF-8''([^;]+)", disposition, re.I)
    if encoded:
        return urllib.parse.unquote(encoded.group(1))
    plain = re.search(r'filename="([^"]*)"', disposition, re.I)
    return plain.group(1) if plain else "export.zip"


def _unpack(archive: zipfile.ZipFile, out: Path) -> Dict[str, int]:
    root = out.resolve()
    files = 0
    size = 0
    for info in archive.infolist():
        name = info.filename
        parts = PurePosixPath(name).parts
        if name.startswith("/") or "\\" in name or ".." in parts or re.match(r"^[A-Za-z]:", name):
            raise LoupeInputError(f"Refusing the archive entry {name!r}: not a relative path.")
        target = (root / name).resolve()
        if root not in target.parents and target != root:
            raise LoupeInputError(f"Refusing the archive entry {name!r}: it leaves the folder.")
        if info.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(info) as source, open(target, "wb") as sink:
            while True:
                chunk = source.read(1 << 20)
                if not chunk:
                    break
                sink.write(chunk)
        files += 1
        size += info.file_size
    return {"files": files, "bytes": size}


def download_export(
    transport: Transport,
    method: str,
    path: str,
    out_dir: Union[str, Path],
    *,
    json_body: Any = None,
    query: Optional[Mapping[str, Any]] = None,
) -> Dict[str, Any]:
    """Downloads one export and unpacks it into ``out_dir`` (made when missing); answers
    ``{"out", "filename", "files", "bytes"}``."""
    out = require_empty_folder(out_dir)
    handle, temporary = tempfile.mkstemp(prefix="loupe-export-", suffix=".zip")
    try:
        with os.fdopen(handle, "w+b") as sink:
            headers = transport.download(method, path, sink, json_body=json_body, query=query)
            sink.seek(0)
            try:
                archive = zipfile.ZipFile(sink)
            except zipfile.BadZipFile as error:
                raise LoupeInputError(f"The export is not a readable zip ({error}).") from None
            with archive:
                out.mkdir(parents=True, exist_ok=True)
                try:
                    # Each entry's CRC is checked as it is read.
                    counts = _unpack(archive, out)
                except zipfile.BadZipFile as error:
                    raise LoupeInputError(f"The export is damaged ({error}).") from None
        return {"out": str(out), "filename": _filename(headers), **counts}
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass
