"""`pip install` from the instance's own package index (docs/product.md journey 2)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import unittest
import urllib.error
import urllib.request
from pathlib import Path

from _support import SERVER


def index_state(url: str) -> str:
    """'ok' when the index lists loupe, otherwise why not."""
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            text = answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return f"GET {url} answered {error.code}"
    if 'href="loupe/"' in text or "href='loupe/'" in text or ">loupe<" in text:
        return "ok"
    return f"GET {url} answered a page that lists no loupe package (the web app's fallback page)"


@unittest.skipUnless(SERVER, "LOUPE_URL is not set: run node scripts/test-python-sdk.mjs")
class PipInstallTest(unittest.TestCase):
    def test_pip_install_from_the_instance(self) -> None:
        index = f"{SERVER.rstrip('/')}/sdk/python/simple/"
        state = index_state(index)
        if state != "ok":
            self.skipTest(f"the server does not serve the Python package index yet: {state}")
        with tempfile.TemporaryDirectory(prefix="loupe-pip-") as target:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "install",
                    "--disable-pip-version-check",
                    "--no-cache-dir",
                    "--index-url",
                    index,
                    "--target",
                    target,
                    "loupe",
                ],
                capture_output=True,
                text=True,
                timeout=300,
            )
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            env["PYTHONPATH"] = target
            check = subprocess.run(
                [sys.executable, "-c", "import loupe; print(loupe.__file__); print(loupe.__version__)"],
                capture_output=True,
                text=True,
                env=env,
                cwd=target,
                timeout=60,
            )
            self.assertEqual(check.returncode, 0, check.stderr)
            where, version = check.stdout.split()
            self.assertTrue(Path(where).resolve().is_relative_to(Path(target).resolve()), where)
            source = Path(__file__).resolve().parents[1] / "pyproject.toml"
            self.assertIn(f'version = "{version}"', source.read_text())
            self.assertTrue((Path(target) / "bin" / "loupe").exists(), "no loupe console script")
            cli = subprocess.run(
                [sys.executable, "-m", "loupe", "--version"],
                capture_output=True,
                text=True,
                env=env,
                cwd=target,
                timeout=60,
            )
            self.assertEqual(cli.stdout.strip(), f"loupe {version}")


if __name__ == "__main__":
    unittest.main()
