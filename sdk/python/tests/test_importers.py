"""Folder imports: the CSV layout and the COCO layout, and the YAML subset of dataset.yaml."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from _support import ServerTest, grey_png, loupe, png, unique
from loupe import _yaml
from loupe.importers import read_folder


def csv_folder(root: Path) -> Path:
    """A classification folder: two splits, one metadata column of numbers and one of text."""
    (root / "images").mkdir(parents=True)
    for i in range(5):
        (root / "images" / f"{i}.png").write_bytes(png(3, 3, (i * 40, 0, 0)))
    (root / "dataset.yaml").write_text(
        "# classes in order\nclass_names: [cat, dog]\n", encoding="utf-8"
    )
    (root / "train.csv").write_text(
        "image,label,hour,camera\n"
        "images/0.png,cat,21,A\n"
        "images/1.png,dog,8,B\n"
        "images/2.png,cat,,B\n",
        encoding="utf-8",
    )
    (root / "test.csv").write_text(
        "image,label,hour,camera\nimages/3.png,dog,13.5,A\nimages/4.png,cat,2,7\n",
        encoding="utf-8",
    )
    return root


def folder_with_others(root: Path) -> Path:
    """The classification folder with a prediction CSV and a feature CSV beside its splits."""
    csv_folder(root)
    (root / "predictions_A.csv").write_text(
        "id,label,score,cat,dog\n"
        + "".join(f"images/{i}.png,cat,0.75,0.75,0.25\n" for i in range(5)),
        encoding="utf-8",
    )
    (root / "features.csv").write_text("image,f0,f1\nimages/0.png,0.1,0.2\n", encoding="utf-8")
    return root


def coco_folder(root: Path) -> Path:
    """A COCO layout with a train and a val split."""
    (root / "annotations").mkdir(parents=True)
    categories = [{"id": 1, "name": "car"}, {"id": 3, "name": "person"}]
    splits = {
        "train": [("a.png", [(1, [0, 0, 4, 4]), (3, [2, 2, 3, 5])]), ("b.png", [])],
        "val": [("c.png", [(3, [1, 1, 2, 2])])],
    }
    next_id = 100
    for split, images in splits.items():
        (root / "images" / split).mkdir(parents=True)
        coco = {"images": [], "annotations": [], "categories": categories}
        for image_id, (file_name, boxes) in enumerate(images, start=1):
            (root / "images" / split / file_name).write_bytes(png(8, 8, (image_id, 5, 5)))
            coco["images"].append(
                {"id": image_id, "file_name": file_name, "width": 8, "height": 8}
            )
            for category, bbox in boxes:
                x, y, w, h = bbox
                coco["annotations"].append(
                    {
                        "id": next_id,
                        "image_id": image_id,
                        "category_id": category,
                        "bbox": bbox,
                        "area": w * h,
                        "iscrowd": 0,
                        "segmentation": [[x, y, x + w, y, x + w, y + h, x, y + h]],
                    }
                )
                next_id += 1
        name = f"instances_{split}.json" if split == "train" else f"{split}.json"
        (root / "annotations" / name).write_text(json.dumps(coco), encoding="utf-8")
    return root


class ReadFolderTest(unittest.TestCase):
    """Reading folders needs no server."""

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.tmp = Path(self._tmp.name)

    def test_csv_layout_ids_splits_and_typed_metadata(self) -> None:
        folder = read_folder(csv_folder(self.tmp / "pets"), "classification")
        self.assertEqual(folder.layout, "csv")
        self.assertEqual(folder.class_names, ["cat", "dog"])
        self.assertEqual(sorted(folder.splits), ["test", "train"])
        by_id = {s["id"]: s for s in folder.samples}
        self.assertEqual(by_id["images/3.png"]["split"], "test")
        self.assertEqual(by_id["images/3.png"]["label"], "dog")
        self.assertEqual(by_id["images/3.png"]["metadata"], {"hour": 13.5, "camera": "A"})
        self.assertEqual(by_id["images/0.png"]["metadata"]["hour"], 21)
        self.assertIsNone(by_id["images/2.png"]["metadata"]["hour"])  # empty cell
        # One cell of `camera` is a number, the others text: the column stays text.
        self.assertEqual(by_id["images/4.png"]["metadata"]["camera"], "7")

    def test_regression_values_column_or_one_column_per_name(self) -> None:
        root = self.tmp / "reg"
        root.mkdir()
        (root / "dataset.yaml").write_text("value_names:\n  - width\n  - height\n")
        (root / "train.csv").write_text('image,values\na.png,"[1.5, 2]"\n')
        (root / "test.csv").write_text("image,width,height,site\nb.png,3,4,north\n")
        (root / "a.png").write_bytes(png())
        (root / "b.png").write_bytes(png())
        folder = read_folder(root, "regression")
        by_id = {s["id"]: s for s in folder.samples}
        self.assertEqual(folder.value_names, ["width", "height"])
        self.assertEqual(by_id["a.png"]["values"], [1.5, 2.0])
        self.assertEqual(by_id["b.png"]["values"], {"width": 3.0, "height": 4.0})
        self.assertEqual(by_id["b.png"]["metadata"], {"site": "north"})

    def test_semantic_segmentation_with_label_map(self) -> None:
        root = self.tmp / "seg"
        root.mkdir()
        (root / "dataset.yaml").write_text(
            "class_names: [background, road]\nlabel_map:\n  0: background\n  255: road\n"
        )
        (root / "train.csv").write_text("image,semantic_masks\nimg/a.png,masks/a.png\n")
        (root / "img").mkdir()
        (root / "img" / "a.png").write_bytes(png())
        (root / "masks").mkdir()
        (root / "masks" / "a.png").write_bytes(grey_png([[0]]))
        folder = read_folder(root, "semantic_segmentation")
        self.assertEqual(folder.label_map, {"0": "background", "255": "road"})
        self.assertEqual(folder.samples[0]["mask"], "masks/a.png")

    def test_coco_layout(self) -> None:
        folder = read_folder(coco_folder(self.tmp / "coco"), "instance_segmentation")
        self.assertEqual(folder.layout, "coco")
        self.assertEqual(folder.class_names, ["car", "person"])
        by_id = {s["id"]: s for s in folder.samples}
        self.assertEqual(set(by_id), {"a.png", "b.png", "c.png"})
        self.assertEqual(by_id["c.png"]["split"], "val")
        self.assertEqual(by_id["a.png"]["split"], "train")  # from instances_train.json
        self.assertEqual(by_id["a.png"]["image"], "images/train/a.png")
        first = by_id["a.png"]["objects"][0]
        self.assertEqual(first["label"], "car")
        self.assertEqual(first["bbox"], [0.0, 0.0, 4.0, 4.0])
        self.assertEqual(first["segmentation"], [[0, 0, 4, 0, 4, 4, 0, 4]])
        self.assertIs(first["iscrowd"], False)
        self.assertEqual(by_id["b.png"]["objects"], [])

    def test_neither_layout(self) -> None:
        (self.tmp / "x.csv").write_text("image\n")
        with self.assertRaises(loupe.LoupeInputError) as caught:
            read_folder(self.tmp, "classification")
        self.assertIn("has neither dataset.yaml nor annotations/", str(caught.exception))

    def test_missing_media_file_stops_the_import_before_anything_is_sent(self) -> None:
        root = csv_folder(self.tmp / "pets")
        (root / "images" / "4.png").unlink()
        with self.assertRaises(loupe.LoupeInputError) as caught:
            read_folder(root, "classification")
        self.assertIn("images/4.png (test.csv line 3)", str(caught.exception))

    def test_reserved_metadata_column(self) -> None:
        root = csv_folder(self.tmp / "pets")
        (root / "extra.csv").write_text("image,label,image.width\nimages/0.png,cat,3\n")
        with self.assertRaises(loupe.LoupeInputError) as caught:
            read_folder(root, "classification")
        self.assertIn("Column 'image.width' cannot become metadata", str(caught.exception))

    def test_missing_label_column(self) -> None:
        (self.tmp / "dataset.yaml").write_text("class_names: [a]\n")
        (self.tmp / "train.csv").write_text("image,kind\na.png,x\n")
        with self.assertRaises(loupe.LoupeInputError) as caught:
            read_folder(self.tmp, "classification")
        self.assertIn("train.csv has no label column", str(caught.exception))

    def test_other_csvs_beside_the_splits_name_the_options(self) -> None:
        root = folder_with_others(self.tmp / "pets")
        with self.assertRaises(loupe.LoupeInputError) as caught:
            read_folder(root, "classification")
        self.assertIn(
            "features.csv is not a sample file (it has no label column); predictions_A.csv is not "
            "a sample file (its name says predictions): name the sample files with --splits or in "
            "dataset.yaml, or import predictions with --predictions NAME=FILE",
            str(caught.exception),
        )
        splits = {"train": "train.csv", "test": "test.csv"}
        folder = read_folder(
            root, "classification", splits=splits, predictions={"A": "predictions_A.csv"}
        )
        self.assertEqual(sorted(folder.splits), ["test", "train"])
        self.assertEqual(len(folder.samples), 5)
        [(name, predictions)] = folder.prediction_sets
        self.assertEqual(name, "A")
        self.assertEqual(
            predictions[0],
            {"id": "images/0.png", "label": "cat", "score": 0.75,
             "probabilities": {"cat": 0.75, "dog": 0.25}},
        )
        (root / "dataset.yaml").write_text(
            "class_names: [cat, dog]\nsplits:\n  train: train.csv\n  test: test.csv\n"
        )
        self.assertEqual(sorted(read_folder(root, "classification").splits), ["test", "train"])
        (root / "predictions_B.csv").write_text("image,label\nimages/9.png,cat\n")
        with self.assertRaises(loupe.LoupeInputError) as caught:
            read_folder(root, "classification", predictions={"B": "predictions_B.csv"})
        self.assertIn(
            "predictions_B.csv line 2: no sample of the folder has the id 'images/9.png'",
            str(caught.exception),
        )

    def test_coco_missing_image(self) -> None:
        root = coco_folder(self.tmp / "coco")
        (root / "images" / "val" / "c.png").unlink()
        with self.assertRaises(loupe.LoupeInputError) as caught:
            read_folder(root, "object_detection")
        self.assertIn("images/val/c.png", str(caught.exception))

    def test_detection_needs_coco(self) -> None:
        csv_folder(self.tmp / "pets")
        with self.assertRaises(loupe.LoupeInputError) as caught:
            read_folder(self.tmp / "pets", "object_detection")
        self.assertIn("COCO layout", str(caught.exception))


class YamlSubsetTest(unittest.TestCase):
    def test_subset(self) -> None:
        text = (
            "# a dataset\n"
            "name: 'street scenes'   # quoted\n"
            'class_names: [car, "traffic light", \'a, b\']\n'
            "value_names:\n  - width\n  - height\n"
            "label_map:\n  0: background\n  1: road\n"
            "threshold: 0.5\n"
            "enabled: true\n"
            "empty:\n"
        )
        self.assertEqual(
            _yaml.loads(text),
            {
                "name": "street scenes",
                "class_names": ["car", "traffic light", "a, b"],
                "value_names": ["width", "height"],
                "label_map": {"0": "background", "1": "road"},
                "threshold": 0.5,
                "enabled": True,
                "empty": None,
            },
        )

    def test_errors_name_the_line(self) -> None:
        with self.assertRaises(_yaml.YamlError) as caught:
            _yaml.loads("class_names: [a, b\n")
        self.assertEqual(caught.exception.line, 1)
        with self.assertRaises(_yaml.YamlError) as caught:
            _yaml.loads("a: 1\nnot a mapping line\n")
        self.assertEqual(caught.exception.line, 2)


class ImportFolderTest(ServerTest):
    def test_csv_classification(self) -> None:
        name = unique("import-csv")
        ds = self.client.import_folder(csv_folder(self.tmp / "pets"), name, "classification")
        self.addCleanup(self._delete, ds)
        self.assertEqual(ds.samples_count, 5)
        self.assertEqual(sorted(ds.splits), ["test", "train"])
        self.assertEqual(ds.class_names, ["cat", "dog"])
        # Importing again into the same dataset (exist_ok) changes nothing.
        again = self.client.import_folder(self.tmp / "pets", name, "classification", exist_ok=True)
        self.assertEqual(again.id, ds.id)
        self.assertEqual(again.samples_count, 5)

    def test_csv_with_named_splits_and_a_prediction_set(self) -> None:
        ds = self.client.import_folder(
            folder_with_others(self.tmp / "pets"),
            unique("import-others"),
            "classification",
            splits={"train": "train.csv", "test": "test.csv"},
            predictions={"A": "predictions_A.csv"},
        )
        self.addCleanup(self._delete, ds)
        self.assertEqual(ds.samples_count, 5)
        self.assertEqual(sorted(ds.splits), ["test", "train"])
        [model] = ds.imported_prediction_sets
        self.assertEqual((model.name, model.upload_result["created"]), ("A", 5))
        self.assertEqual([p.name for p in ds.prediction_sets()], ["A"])

    def test_csv_regression(self) -> None:
        root = self.tmp / "reg"
        root.mkdir()
        (root / "dataset.yaml").write_text("value_names: [age]\n")
        (root / "a.png").write_bytes(png(2, 2, (1, 2, 3)))
        (root / "b.png").write_bytes(png(2, 2, (3, 2, 1)))
        (root / "train.csv").write_text("image,age,site\na.png,31,x\nb.png,47.5,y\n")
        ds = self.client.import_folder(root, unique("import-reg"), "regression")
        self.addCleanup(self._delete, ds)
        self.assertEqual(ds.samples_count, 2)
        self.assertEqual(ds.value_names, ["age"])

    def test_csv_semantic_segmentation(self) -> None:
        root = self.tmp / "seg"
        root.mkdir()
        (root / "dataset.yaml").write_text("class_names: [bg, road]\n")
        (root / "a.png").write_bytes(png(2, 2))
        (root / "a_mask.png").write_bytes(grey_png([[0, 1], [1, 0]]))
        (root / "val.csv").write_text("image,semantic_masks,class_names\na.png,a_mask.png,bg\n")
        ds = self.client.import_folder(root, unique("import-seg"), "semantic_segmentation")
        self.addCleanup(self._delete, ds)
        self.assertEqual(ds.samples_count, 1)
        self.assertEqual(ds.splits, ["val"])

    def test_coco(self) -> None:
        ds = self.client.import_folder(
            coco_folder(self.tmp / "coco"), unique("import-coco"), "object_detection"
        )
        self.addCleanup(self._delete, ds)
        self.assertEqual(ds.samples_count, 3)
        self.assertEqual(ds.objects_count, 3)
        self.assertEqual(ds.class_names, ["car", "person"])
        self.assertEqual(sorted(ds.splits), ["train", "val"])


if __name__ == "__main__":
    unittest.main()
