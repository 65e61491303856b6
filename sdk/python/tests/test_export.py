"""Exports: Client.export_items / export_subset and `loupe export` download a subset or chosen
items as a COCO or CSV folder and unpack it; the folder imports back as the same dataset."""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from pathlib import Path

from _support import ServerTest, loupe, png, unique
from loupe.importers import read_folder
from test_cli import run


class ExportTest(ServerTest):
    def pets(self) -> loupe.Dataset:
        """Three images: a (train, cat), b (val, dog), c (no split, cat), with metadata."""
        ds = self.dataset("export-pets", "classification", class_names=["cat", "dog"])
        ds.upload_samples(
            [
                {"id": "a.png", "image": png(3, 2, (10, 0, 0)), "split": "train", "label": "cat",
                 "metadata": {"hour": 9, "camera": "north, left"}},
                {"id": "b.png", "image": png(3, 2, (20, 0, 0)), "split": "val", "label": "dog",
                 "metadata": {"hour": 21, "camera": "south"}},
                {"id": "c.png", "image": png(3, 2, (30, 0, 0)), "label": "cat",
                 "metadata": {"camera": "east"}},
            ]
        )
        return ds

    def test_export_items_as_csv_imports_back_the_same(self) -> None:
        ds = self.pets()
        out = self.tmp / "out"
        done = self.client.export_items(ds, ["a.png", "b.png", "c.png"], "image", "csv", out)
        self.assertEqual(done["files"], 7)  # dataset.yaml, 3 CSVs, 3 images
        self.assertTrue(done["filename"].endswith("-selection-csv.zip"))
        self.assertEqual(
            (out / "train.csv").read_text(encoding="utf-8"),
            'id,image,label,camera,hour\na.png,images/a.png,cat,"north, left",9\n',
        )
        self.assertEqual((out / "images" / "b.png").read_bytes(), png(3, 2, (20, 0, 0)))

        folder = read_folder(out, "classification")
        self.assertEqual(folder.class_names, ["cat", "dog"])
        by_id = {s["id"]: s for s in folder.samples}
        self.assertEqual(by_id["c.png"]["split"], "default")
        self.assertEqual(by_id["a.png"]["metadata"], {"hour": 9, "camera": "north, left"})

        again = self.client.import_folder(out, unique("export-again"), "classification")
        self.addCleanup(self._delete, again)
        back = self.tmp / "back"
        self.client.export_items(again, ["a.png", "b.png", "c.png"], "image", "csv", back)
        for name in ("train.csv", "val.csv", "default.csv"):
            self.assertEqual(
                (back / name).read_text(encoding="utf-8"),
                (out / name).read_text(encoding="utf-8"),
            )

    def test_export_subset_by_name_at_object_level_as_coco(self) -> None:
        ds = self.dataset("export-boxes", "object_detection", class_names=["car", "person"])
        ds.upload_samples(
            [
                {"id": "x.png", "image": png(8, 8, (1, 2, 3)), "split": "train",
                 "objects": [{"id": "1", "label": "car", "bbox": [0, 0, 4, 4]},
                             {"id": "2", "label": "person", "bbox": [1, 1, 2, 2]}]},
            ]
        )
        self.client.request(
            "POST",
            f"/api/datasets/{ds.id}/subsets",
            json_body={"name": "People", "data_level": "image_object", "item_ids": ["x.png#2"]},
        )
        out = self.tmp / "coco"
        done = self.client.export_subset(ds.name, "People", "coco", out)
        self.assertTrue(done["filename"].endswith("-People-coco.zip"))
        coco = json.loads((out / "annotations" / "instances_train.json").read_text())
        self.assertEqual([a["id"] for a in coco["annotations"]], [2])
        self.assertEqual([c["name"] for c in coco["categories"]], ["car", "person"])
        self.assertTrue((out / "images" / "train" / "x.png").is_file())

    def test_refuses_a_folder_with_files_in_it(self) -> None:
        ds = self.pets()
        full = self.tmp / "full"
        full.mkdir()
        (full / "keep.txt").write_text("mine")
        with self.assertRaises(loupe.LoupeInputError):
            self.client.export_items(ds, ["a.png"], "image", "csv", full)
        self.assertEqual(os.listdir(full), ["keep.txt"])


class ReadExportedFolderTest(unittest.TestCase):
    """The CSV layout of tasks with objects (what a CSV export writes) needs no server to read."""

    def test_objects_column(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "images").mkdir()
            (root / "images" / "x.png").write_bytes(png(2, 2))
            (root / "dataset.yaml").write_text(
                'task_type: object_detection\nclass_names:\n  - "car"\nsplits:\n'
                '  "train": "train.csv"\n'
            )
            objects = [{"id": "7", "label": "car", "bbox": [0, 0, 1, 1], "iscrowd": True}]
            (root / "train.csv").write_text(
                "id,image,objects,weather\n"
                f'x.png,images/x.png,"{json.dumps(objects).replace(chr(34), chr(34) * 2)}",sun\n'
            )
            (root / "preds.csv").write_text(
                "id,objects\n"
                'x.png,"[{""label"": ""car"", ""bbox"": [0, 0, 1, 1], ""score"": 0.5}]"\n'
            )
            folder = read_folder(root, "object_detection", predictions={"m": "preds.csv"})
            self.assertEqual(
                folder.samples,
                [{"id": "x.png", "image": "images/x.png", "split": "train", "objects": objects,
                  "metadata": {"weather": "sun"}}],
            )
            self.assertEqual(
                folder.prediction_sets[0][1],
                [{"id": "x.png",
                  "objects": [{"label": "car", "bbox": [0, 0, 1, 1], "score": 0.5}]}],
            )
            (root / "train.csv").write_text("id,image\nx.png,images/x.png\n")
            with self.assertRaises(loupe.LoupeInputError) as caught:
                read_folder(root, "object_detection")
            self.assertIn("train.csv has no objects column", str(caught.exception))


class ExportCliTest(ServerTest):
    def test_loupe_export_downloads_and_unpacks(self) -> None:
        ds = self.dataset("export-cli", "regression", value_names=["w", "h"])
        ds.upload_samples(
            [{"id": "r.png", "image": png(2, 2, (5, 5, 5)), "split": "train", "values": [1.5, 2]}]
        )
        env = {"LOUPE_URL": os.environ["LOUPE_URL"], "LOUPE_API_KEY": os.environ["LOUPE_API_KEY"]}
        ids = self.write("ids.txt", b"r.png\n")
        out = self.tmp / "out"
        args = ["export", "--dataset", ds.name, "--items-file", str(ids), "--data-level",
                "image", "--format", "csv", "--out", str(out)]
        done = run(args, env)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"into {out}", done.stdout)
        self.assertEqual(
            (out / "train.csv").read_text(encoding="utf-8"),
            'id,image,values\nr.png,images/r.png,"[1.5, 2]"\n',
        )
        self.assertIn('value_names:\n  - "w"\n  - "h"\n', (out / "dataset.yaml").read_text())

        again = run(args, env)
        self.assertEqual(again.returncode, 1)
        self.assertIn(f"--out {out} is not empty", again.stderr)

        coco = run(args[:-4] + ["--format", "coco", "--out", str(self.tmp / "coco")], env)
        self.assertEqual(coco.returncode, 1)
        self.assertIn("not regression", coco.stderr)


if __name__ == "__main__":
    unittest.main()
