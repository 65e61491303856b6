"""Where the client finds its server and API key.

In order: the arguments given to :class:`loupe.Client`, the environment (``LOUPE_URL``,
``LOUPE_API_KEY``), then the file ``loupe configure`` writes:
``$XDG_CONFIG_HOME/loupe/config.json`` (``~/.config/loupe/config.json`` by default), mode 0600.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Dict, Optional


def config_path() -> Path:
    """The config file's path, honouring XDG_CONFIG_HOME."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "loupe" / "config.json"


def read_config() -> Dict[str, str]:
    """The saved settings, or {} when there is no (readable) file."""
    path = config_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


def write_config(url: str, api_key: str) -> Path:
    """Saves the URL and API key, readable by the owner only (0600). Answers the path."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"url": url, "api_key": api_key}, indent=2) + "\n"
    fd = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # an existing file keeps its old mode otherwise
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
    return path


def resolve(url: Optional[str], api_key: Optional[str]) -> Dict[str, Optional[str]]:
    """The URL and key to use: arguments, then environment, then the config file."""
    saved: Optional[Dict[str, str]] = None

    def from_file(name: str) -> Optional[str]:
        nonlocal saved
        if saved is None:
            saved = read_config()
        return saved.get(name) or None

    url = url or os.environ.get("LOUPE_URL") or from_file("url")
    api_key = api_key or os.environ.get("LOUPE_API_KEY") or from_file("api_key")
    return {"url": url, "api_key": api_key}
