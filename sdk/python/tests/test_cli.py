"""The `loupe` command line, run as a subprocess (`python -m loupe`)."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import unittest
from pathlib import Path
from typing import Dict, List, Optional

from _support import LICENSE_KEY, SERVER, SRC, ServerTest, unique
from test_importers import csv_folder, folder_with_others


def run(args: List[str], env: Dict[str, str], cwd: Optional[Path] = None) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k not in ("LOUPE_URL", "LOUPE_API_KEY")}
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "loupe", *args],
        env=full_env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class CliTest(ServerTest):
    def setUp(self) -> None:
        super().setUp()
        self.env = {"XDG_CONFIG_HOME": str(self.tmp / "config")}

    def configure(self) -> subprocess.CompletedProcess:
        args = ["configure", "--url", SERVER, "--api-key", os.environ["LOUPE_API_KEY"]]
        if LICENSE_KEY:
            args += ["--license-key", LICENSE_KEY]
        return run(args, self.env)

    def test_configure_checks_the_key_and_writes_a_private_config(self) -> None:
        state_before = self.client.license()["state"]
        done = self.configure()
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("You are Ana Tester <ana@example.com> (admin)", done.stdout)
        if LICENSE_KEY:
            expected = (
                "already licensed" if state_before == "LICENSED" else "License submitted"
            )
            self.assertIn(expected, done.stdout)
            self.assertEqual(self.client.license()["state"], "LICENSED")
        path = self.tmp / "config" / "loupe" / "config.json"
        self.assertEqual(stat.S_IMODE(path.stat().st_mode), 0o600)
        saved = json.loads(path.read_text())
        self.assertEqual(saved, {"url": SERVER, "api_key": os.environ["LOUPE_API_KEY"]})

        # Commands now work from the config file alone.
        listed = run(["datasets"], self.env)
        self.assertEqual(listed.returncode, 0, listed.stderr)

    def test_configure_with_a_wrong_key_fails_and_writes_nothing(self) -> None:
        done = run(["configure", "--url", SERVER, "--api-key", "lp_wrong"], self.env)
        self.assertEqual(done.returncode, 1)
        self.assertIn("X-API-Key", done.stderr)
        self.assertFalse((self.tmp / "config" / "loupe" / "config.json").exists())

    def test_import_folder_then_list(self) -> None:
        self.assertEqual(self.configure().returncode, 0)
        name = unique("cli-import")
        folder = csv_folder(self.tmp / "pets")
        done = run(
            ["import", "folder", str(folder), "--name", name, "--task", "classification"],
            self.env,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"Imported into '{name}': 5 created, 0 updated, 0 unchanged.", done.stdout)
        self.assertIn("It has 5 samples (classification; splits: test, train;", done.stdout)
        self.addCleanup(self.client.delete_dataset, name)

        listed = run(["datasets", "--json"], self.env)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        mine = [d for d in json.loads(listed.stdout) if d["name"] == name]
        self.assertEqual(mine[0]["samples_count"], 5)

        table = run(["datasets"], self.env)
        self.assertRegex(table.stdout, rf"{name}\s+classification\s+5\s")

        # The same import again without --exist-ok: the server refuses the duplicate name.
        again = run(
            ["import", "folder", str(folder), "--name", name, "--task", "classification"],
            self.env,
        )
        self.assertEqual(again.returncode, 1)
        self.assertIn("already exists", again.stderr)
        self.assertIn("Add --exist-ok", again.stderr)

        # With --exist-ok the import runs again and changes nothing.
        resumed = run(
            ["import", "folder", str(folder), "--name", name, "--task", "classification",
             "--exist-ok"],
            self.env,
        )
        self.assertEqual(resumed.returncode, 0, resumed.stderr)
        self.assertIn("0 created, 0 updated, 5 unchanged. It has 5 samples", resumed.stdout)

    def test_import_folder_with_other_csvs_beside(self) -> None:
        self.assertEqual(self.configure().returncode, 0)
        name = unique("cli-others")
        folder = folder_with_others(self.tmp / "pets")
        base = ["import", "folder", str(folder), "--name", name, "--task", "classification"]
        refused = run(base, self.env)
        self.assertEqual(refused.returncode, 2)
        self.assertIn(
            "features.csv is not a sample file (it has no label column); predictions_A.csv is not "
            "a sample file (its name says predictions): name the sample files with --splits or in "
            "dataset.yaml, or import predictions with --predictions NAME=FILE",
            refused.stderr,
        )
        self.assertFalse(any(d.name == name for d in self.client.datasets()))
        done = run(
            base
            + ["--splits", "train=train.csv,test=test.csv"]
            + ["--predictions", "A=predictions_A.csv"],
            self.env,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.addCleanup(self.client.delete_dataset, name)
        self.assertIn("It has 5 samples (classification; splits: test, train;", done.stdout)
        self.assertIn("Prediction set 'A': 5 created, 0 updated, 0 unchanged.", done.stdout)
        bad = run(base + ["--predictions", "A"], self.env)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--predictions takes NAME=FILE, got 'A'", bad.stderr)

    def test_bad_input_exits_2(self) -> None:
        self.assertEqual(self.configure().returncode, 0)
        (self.tmp / "empty").mkdir()
        done = run(
            ["import", "folder", str(self.tmp / "empty"), "--name", "x", "--task", "regression"],
            self.env,
        )
        self.assertEqual(done.returncode, 2)
        self.assertIn("has neither dataset.yaml nor annotations/", done.stderr)

        wrong_task = run(
            ["import", "coco", str(self.tmp), "--name", "x", "--task", "classification"], self.env
        )
        self.assertEqual(wrong_task.returncode, 2)
        self.assertIn("invalid choice", wrong_task.stderr)


class CliWithoutServerTest(unittest.TestCase):
    def test_no_configuration(self) -> None:
        done = run(["datasets"], {"XDG_CONFIG_HOME": "/nonexistent-loupe-config"})
        self.assertEqual(done.returncode, 2)
        self.assertIn("loupe configure", done.stderr)

    def test_unreachable_server_exits_1(self) -> None:
        url = f"http://127.0.0.1:{closed_port()}"
        done = run(
            ["configure", "--url", url, "--api-key", "k"],
            {"XDG_CONFIG_HOME": "/nonexistent-loupe-config"},
        )
        self.assertEqual(done.returncode, 1)
        self.assertIn(f"Could not reach the Loupe server at {url}", done.stderr)


if __name__ == "__main__":
    unittest.main()
