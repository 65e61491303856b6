"""Reading dataset folders: the CSV layout and the COCO layout (docs/formats.md).

CSV layout::

    dataset.yaml        class_names / value_names / label_map, optionally splits
    train.csv           one CSV per split; the file name is the split name
    test.csv
    images/…            media, referenced from the CSVs relative to the folder
    predictions_A.csv   a prediction CSV, read only when named (``predictions={"A": …}``)

COCO layout::

    annotations/instances_train.json   one COCO json per split (or train.json)
    images/train/<file_name>           one image folder per split

:func:`read_folder` turns either into the sample dicts :meth:`loupe.Dataset.upload_samples`
takes, plus the class and value names for creating the dataset and the prediction dicts of the
named prediction CSVs; nothing is sent.
"""

from __future__ import annotations

import csv
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _yaml
from ._http import LoupeInputError
from ._media import is_remote

AUDIO_TASKS = ("audio_classification", "automatic_speech_recognition")
COCO_TASKS = ("object_detection", "instance_segmentation")
YAML_NAMES = ("dataset.yaml", "dataset.yml")
#: CSV columns with a meaning; every other column becomes metadata.
KNOWN_COLUMNS = {
    "id",
    "image",
    "audio",
    "label",
    "labels",
    "values",
    "semantic_masks",
    "mask",
    "transcript",
    "split",
    "class_names",
    "objects",
}

#: Metadata names the server keeps for itself (packages/contracts/src/upload-rows.ts).
RESERVED_METADATA = re.compile(
    r"^(?:id|split|label|labels|card_index)$|^(?:image|audio|object|prediction|concept|check)\."
)

NOT_SAMPLES_HINT = (
    "name the sample files with --splits or in dataset.yaml, or import predictions with "
    "--predictions NAME=FILE"
)
#: File names that say predictions (predictions_A.csv, preds.csv): never guessed to be a split.
PREDICTIONS_NAME = re.compile(r"^pred(ictions?|s)?(?![a-z])", re.I)

_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(inf|infinity)$", re.I)


@dataclass
class Folder:
    """What a folder holds: the dataset's definition and its samples (media paths relative to
    ``root``)."""

    root: Path
    layout: str
    task_type: str
    samples: List[Dict[str, Any]] = field(default_factory=list)
    class_names: Optional[List[str]] = None
    value_names: Optional[List[str]] = None
    label_map: Optional[Dict[str, str]] = None
    #: (prediction set name, prediction dicts) to upload after the samples, in the order named.
    prediction_sets: List[Tuple[str, List[Dict[str, Any]]]] = field(default_factory=list)

    @property
    def splits(self) -> List[str]:
        seen: Dict[str, None] = {}
        for sample in self.samples:
            seen.setdefault(sample.get("split", ""), None)
        return list(seen)


def detect_layout(root: Path) -> str:
    """``"csv"`` or ``"coco"``; raises LoupeInputError for a folder in neither layout."""
    if not root.is_dir():
        raise LoupeInputError(f"{root} is not a folder.")
    has_yaml = any((root / name).is_file() for name in YAML_NAMES)
    has_annotations = (root / "annotations").is_dir()
    if has_yaml:
        return "csv"
    if has_annotations:
        return "coco"
    raise LoupeInputError(
        f"{root} has neither dataset.yaml nor annotations/: a dataset folder holds either "
        "dataset.yaml and one CSV per split, or annotations/ and images/<split>/ (COCO). See "
        "docs/formats.md."
    )


def read_folder(
    path: Union[str, Path],
    task_type: str,
    layout: Optional[str] = None,
    *,
    splits: Optional[Mapping[str, str]] = None,
    predictions: Optional[Mapping[str, str]] = None,
) -> Folder:
    """Reads a folder in the CSV or COCO layout (detected unless ``layout`` says which).

    ``splits`` (split name → CSV, relative to the folder) names the sample files, overriding
    dataset.yaml's ``splits``; ``predictions`` (prediction set name → CSV) names prediction CSVs.
    """
    root = Path(path).expanduser().resolve()
    found = detect_layout(root) if layout is None else layout
    if found == "coco" and (splits or predictions):
        raise LoupeInputError(
            "--splits and --predictions are for the CSV layout; a COCO folder's splits are its "
            "annotation files (upload predictions with Dataset.upload_predictions)."
        )
    if found == "csv":
        if layout is not None and not any((root / n).is_file() for n in YAML_NAMES):
            if not root.is_dir():
                raise LoupeInputError(f"{root} is not a folder.")
            raise LoupeInputError(f"{root} has no dataset.yaml (needed by the CSV layout).")
        return read_csv_folder(root, task_type, splits=splits, predictions=predictions)
    if found == "coco":
        if not (root / "annotations").is_dir():
            if not root.is_dir():
                raise LoupeInputError(f"{root} is not a folder.")
            raise LoupeInputError(
                f"{root} has no annotations/ folder (the COCO layout: annotations/ with one "
                "COCO json per split, and images/<split>/)."
            )
        return read_coco_folder(root, task_type)
    raise LoupeInputError(f"Unknown layout {layout!r}: use 'csv' or 'coco'.")


# ---- the CSV layout


def _names(value: Any, key: str, source: Path) -> Optional[List[str]]:
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        raise LoupeInputError(f"{source}: {key} must be a non-empty list, e.g. {key}: [a, b].")
    return [str(v).lower() if isinstance(v, bool) else str(v) for v in value]


def _read_yaml(root: Path) -> Tuple[Path, Dict[str, Any]]:
    source = next(root / n for n in YAML_NAMES if (root / n).is_file())
    try:
        return source, _yaml.loads(source.read_text(encoding="utf-8-sig"))
    except _yaml.YamlError as error:
        raise LoupeInputError(f"{source}: {error}") from None


def _parse_cell(text: str) -> Union[int, float, str]:
    if _INT.match(text):
        return int(text)
    return float(text)


def _column_values(cells: Sequence[str]) -> List[Any]:
    """Types a metadata column as a whole: numbers if every filled cell is one, else booleans if
    every filled cell is true/false, else strings. Empty cells become None."""
    filled = [c for c in cells if c != ""]
    if filled and all(_INT.match(c) or _FLOAT.match(c) for c in filled):
        values: List[Any] = []
        for cell in cells:
            number = _parse_cell(cell) if cell != "" else None
            values.append(None if isinstance(number, float) and not math.isfinite(number) else number)
        return values
    if filled and all(c.lower() in ("true", "false") for c in filled):
        return [None if c == "" else c.lower() == "true" for c in cells]
    return [None if c == "" else c for c in cells]


def _parse_values(text: str, where: str) -> List[float]:
    """A `values` cell: a JSON list, or numbers separated by commas, semicolons or spaces."""
    text = text.strip()
    try:
        if text.startswith("["):
            parsed = json.loads(text)
        else:
            parsed = [float(p) for p in re.split(r"[,;\s]+", text) if p]
        return [float(v) for v in parsed]
    except (ValueError, TypeError):
        raise LoupeInputError(
            f"{where}: values must be numbers, e.g. [1.5, 2] or 1.5;2, got {text!r}."
        ) from None


def _splits(value: Any, source: Path) -> Optional[Dict[str, str]]:
    """dataset.yaml's ``splits``: a mapping of split name to CSV file, or None."""
    if value is None:
        return None
    if not isinstance(value, dict) or not value:
        raise LoupeInputError(
            f"{source}: splits must map each split name to its CSV file, e.g. "
            "splits: {train: train.csv, test: test.csv}."
        )
    return {str(k): str(v) for k, v in value.items()}


def _header(path: Path) -> List[str]:
    with path.open(newline="", encoding="utf-8-sig") as handle:
        return [h.strip() for h in next(csv.reader(handle), [])]


def _not_samples_reason(path: Path, task: str, value_names: List[str]) -> Optional[str]:
    """Why a CSV found in the folder is clearly not a split's samples, if it is not."""
    if PREDICTIONS_NAME.match(path.name):
        return "its name says predictions"
    header = _header(path)
    media = "audio" if task in AUDIO_TASKS else "image"
    if media not in header:
        return f"it has no {media} column"
    missing = _missing_task_columns(header, task, value_names)
    return f"it has no {missing}" if missing else None


def read_csv_folder(
    root: Path,
    task_type: str,
    *,
    splits: Optional[Mapping[str, str]] = None,
    predictions: Optional[Mapping[str, str]] = None,
) -> Folder:
    """Reads dataset.yaml and the sample CSVs of a folder (the named ones, else every
    ``<split>.csv``), then the named prediction CSVs. Tasks with objects have them in an
    ``objects`` column (a JSON list per row)."""
    source, spec = _read_yaml(root)
    declared = spec.get("task_type") or spec.get("task")
    if declared and declared != task_type:
        raise LoupeInputError(f"{source} says task {declared!r}, but {task_type!r} was asked for.")
    class_names = _names(spec.get("class_names"), "class_names", source)
    value_names = _names(spec.get("value_names"), "value_names", source)
    label_map_raw = spec.get("label_map")
    label_map: Optional[Dict[str, str]] = None
    if label_map_raw is not None:
        if not isinstance(label_map_raw, dict) or not all(
            re.match(r"^\d+$", k) for k in label_map_raw
        ):
            raise LoupeInputError(
                f"{source}: label_map must map mask pixel values (integers) to class names, "
                "e.g.\nlabel_map:\n  0: background\n  1: road"
            )
        label_map = {k: str(v) for k, v in label_map_raw.items()}
    if task_type == "regression" and not value_names:
        raise LoupeInputError(f"{source}: a regression dataset needs value_names: [a, b, …].")
    if task_type == "semantic_segmentation" and not (class_names or label_map):
        raise LoupeInputError(
            f"{source}: a semantic segmentation dataset needs class_names (and a label_map when "
            "mask pixel values are not the class indexes)."
        )

    prediction_files = {name: root / file for name, file in (predictions or {}).items()}
    named = dict(splits) if splits else _splits(spec.get("splits"), source)
    where = "--splits" if splits else f"{source.name}: splits"
    files: List[Tuple[str, Path]] = []
    if named:
        for split, file in named.items():
            path = (root / file).resolve()
            if not path.is_file():
                raise LoupeInputError(
                    f"{where} names {file} for split {split!r}, but {path} is not a file."
                )
            if path in {p.resolve() for p in prediction_files.values()}:
                raise LoupeInputError(
                    f"{file} is named both as split {split!r} and as predictions."
                )
            files.append((split, path))
    else:
        skip = {p.resolve() for p in prediction_files.values()}
        csvs = sorted(
            p
            for p in root.iterdir()
            if p.is_file() and p.suffix.lower() == ".csv" and p.resolve() not in skip
        )
        if not csvs:
            raise LoupeInputError(
                f"{root} has no CSV files: the CSV layout needs one per split, e.g. train.csv."
            )
        refused = []
        for path in csvs:
            reason = _not_samples_reason(path, task_type, value_names or [])
            if reason:
                refused.append(f"{path.name} is not a sample file ({reason})")
            else:
                files.append((path.stem, path))
        # With no sample file at all, each CSV is read as one, to say what it lacks.
        if refused and files:
            raise LoupeInputError(f"{'; '.join(refused)}: {NOT_SAMPLES_HINT}.")
        if not files:
            files = [(path.stem, path) for path in csvs]
    media_column = "audio" if task_type in AUDIO_TASKS else "image"
    rows: List[Tuple[Path, int, Dict[str, str]]] = []
    split_of: Dict[Path, str] = {path: split for split, path in files}
    metadata_columns: Dict[str, None] = {}
    for _, path in files:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            header = [h.strip() for h in (reader.fieldnames or [])]
            if media_column not in header:
                raise LoupeInputError(
                    f"{path.name} has no {media_column} column (its columns: "
                    f"{', '.join(header) or 'none'})."
                )
            _check_task_columns(path, header, task_type, value_names or [])
            for column in header:
                if column not in KNOWN_COLUMNS and not (
                    task_type == "regression" and column in (value_names or [])
                ):
                    metadata_columns.setdefault(column, None)
            for line, raw in enumerate(reader, start=2):
                row = {(k or "").strip(): (v or "").strip() for k, v in raw.items() if k}
                rows.append((path, line, row))

    reserved = [c for c in metadata_columns if RESERVED_METADATA.match(c)]
    if reserved:
        raise LoupeInputError(
            f"Column {reserved[0]!r} cannot become metadata: the name is reserved "
            "(split, label, and names starting image., audio., object., prediction., concept., "
            "check.). Rename the column."
        )
    metadata = {
        column: _column_values([row.get(column, "") for _, _, row in rows])
        for column in metadata_columns
    }
    samples: List[Dict[str, Any]] = []
    seen: Dict[str, str] = {}
    for index, (path, line, row) in enumerate(rows):
        where = f"{path.name} line {line}"
        media = row.get(media_column, "")
        if not media:
            raise LoupeInputError(f"{where}: the {media_column} cell is empty.")
        sample_id = row.get("id") or media
        if sample_id in seen:
            raise LoupeInputError(f"{where}: id {sample_id!r} also appears in {seen[sample_id]}.")
        seen[sample_id] = where
        sample: Dict[str, Any] = {"id": sample_id, media_column: media, "split": split_of[path]}
        if task_type in ("classification", "audio_classification") and row.get("label"):
            sample["label"] = row["label"]
        if task_type == "regression":
            if row.get("values"):
                sample["values"] = _parse_values(row["values"], where)
            else:
                values: Dict[str, float] = {}
                for name in value_names or []:
                    cell = row.get(name, "")
                    if cell == "":
                        raise LoupeInputError(f"{where}: no value for {name!r}.")
                    values[name] = _parse_values(cell, where)[0]
                sample["values"] = values
        if task_type == "semantic_segmentation":
            mask = row.get("semantic_masks") or row.get("mask")
            if mask:
                sample["mask"] = mask
        if task_type == "automatic_speech_recognition" and row.get("transcript"):
            sample["transcript"] = row["transcript"]
        if task_type in COCO_TASKS and row.get("objects"):
            sample["objects"] = _objects(row["objects"], where)
        extra = {column: values[index] for column, values in metadata.items()}
        if extra:
            sample["metadata"] = extra
        samples.append(sample)
    _check_files(root, rows, samples, (media_column, "mask"))
    return Folder(
        root=root,
        layout="csv",
        task_type=task_type,
        samples=samples,
        class_names=class_names,
        value_names=value_names,
        label_map=label_map,
        prediction_sets=[
            (name, _read_predictions(root, path, task_type, value_names or [], seen))
            for name, path in prediction_files.items()
        ],
    )


def _objects(text: str, where: str) -> List[Dict[str, Any]]:
    """An ``objects`` cell: a JSON list of objects (id, label, bbox, segmentation, iscrowd,
    score)."""
    try:
        objects = json.loads(text)
    except ValueError as error:
        raise LoupeInputError(f"{where}: objects is not JSON ({error}).") from None
    if not isinstance(objects, list) or not all(isinstance(o, dict) for o in objects):
        raise LoupeInputError(f"{where}: objects must be a JSON list of objects.")
    return objects


def _number(text: str, where: str, column: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise LoupeInputError(f"{where}: {column} must be a number, got {text!r}.") from None


def _read_predictions(
    root: Path, path: Path, task: str, value_names: List[str], sample_ids: Mapping[str, str]
) -> List[Dict[str, Any]]:
    """A prediction CSV (docs/formats.md): the sample's ``id`` (or its media path, when that is
    its id), then the task's columns; for classification every other column is a class's
    probability."""
    if not path.is_file():
        raise LoupeInputError(f"--predictions names {path.name}, but {path} is not a file.")
    header = _header(path)
    id_column = next((c for c in ("id", "image", "audio") if c in header), None)
    if id_column is None:
        raise LoupeInputError(f"{path.name} needs an id column (the sample's id).")
    classes = task in ("classification", "audio_classification")
    if classes:
        task_columns = ["label", "score"]
    elif task == "regression":
        task_columns = ["values", *value_names]
    elif task == "semantic_segmentation":
        task_columns = ["mask", "semantic_masks"]
    elif task in COCO_TASKS:
        task_columns = ["objects"]
    else:
        task_columns = ["transcript"]
    extra = [c for c in header if c not in ("id", "image", "audio") and c not in task_columns]
    if extra and not classes:
        raise LoupeInputError(
            f"{path.name}: unknown column {extra[0]!r}: a {task} prediction CSV takes id and "
            f"{', '.join(task_columns)}."
        )
    out: List[Dict[str, Any]] = []
    with path.open(newline="", encoding="utf-8-sig") as handle:
        for line, raw in enumerate(csv.DictReader(handle), start=2):
            row = {(k or "").strip(): (v or "").strip() for k, v in raw.items() if k}
            where = f"{path.name} line {line}"
            sample_id = row.get(id_column, "")
            if not sample_id:
                raise LoupeInputError(f"{where}: the {id_column} cell is empty.")
            if sample_id not in sample_ids:
                raise LoupeInputError(f"{where}: no sample of the folder has the id {sample_id!r}.")
            prediction: Dict[str, Any] = {"id": sample_id}
            if row.get("label"):
                prediction["label"] = row["label"]
            if row.get("score"):
                prediction["score"] = _number(row["score"], where, "score")
            if row.get("transcript"):
                prediction["transcript"] = row["transcript"]
            mask = row.get("mask") or row.get("semantic_masks")
            if mask:
                prediction["mask"] = mask
            if task in COCO_TASKS and row.get("objects"):
                prediction["objects"] = _objects(row["objects"], where)
            if task == "regression":
                if row.get("values"):
                    prediction["values"] = _parse_values(row["values"], where)
                else:
                    prediction["values"] = {
                        n: _number(row.get(n, ""), where, n) for n in value_names
                    }
            elif extra and any(row.get(c) for c in extra):
                prediction["probabilities"] = {
                    c: _number(row.get(c) or "0", where, c) for c in extra
                }
            out.append(prediction)
    return out


def _check_files(
    root: Path,
    rows: List[Tuple[Path, int, Dict[str, str]]],
    samples: List[Dict[str, Any]],
    fields: Sequence[str],
) -> None:
    """Refuses the folder when a CSV names a local file that does not exist."""
    missing: List[str] = []
    for (path, line, _), sample in zip(rows, samples):
        for name in fields:
            value = sample.get(name)
            if isinstance(value, str) and not is_remote(value):
                if not (root / Path(value).expanduser()).is_file():
                    missing.append(f"{value} ({path.name} line {line})")
    if missing:
        raise LoupeInputError(
            f"{len(missing)} file{'s' if len(missing) != 1 else ''} named in the CSVs "
            f"{'do' if len(missing) != 1 else 'does'} not exist under {root}, e.g. "
            f"{', '.join(missing[:3])}."
        )


def _check_task_columns(path: Path, header: List[str], task: str, value_names: List[str]) -> None:
    missing = _missing_task_columns(header, task, value_names)
    if missing:
        raise LoupeInputError(f"{path.name} has no {missing} (its columns: {', '.join(header)}).")


def _missing_task_columns(header: List[str], task: str, value_names: List[str]) -> str:
    missing = ""
    if task in ("classification", "audio_classification") and "label" not in header:
        missing = "label column"
    elif task == "regression" and "values" not in header and not all(
        n in header for n in value_names
    ):
        missing = f"values column nor one column per value name ({', '.join(value_names)})"
    elif task == "semantic_segmentation" and not ({"semantic_masks", "mask"} & set(header)):
        missing = "semantic_masks column"
    elif task == "automatic_speech_recognition" and "transcript" not in header:
        missing = "transcript column"
    elif task in COCO_TASKS and "objects" not in header:
        missing = (
            "objects column (a JSON list of objects per row; such folders also come in the COCO "
            "layout: annotations/ and images/<split>/)"
        )
    return missing


# ---- the COCO layout


def _split_name(path: Path) -> str:
    stem = path.stem
    for prefix in ("instances_", "annotations_"):
        if stem.startswith(prefix) and len(stem) > len(prefix):
            return stem[len(prefix) :]
    return stem


def _segmentation(value: Any) -> Any:
    """Polygons with at least three points, or an RLE dict; None when there is none."""
    if isinstance(value, dict) and "counts" in value and "size" in value:
        return {"size": list(value["size"]), "counts": value["counts"]}
    if isinstance(value, list):
        polygons = [list(p) for p in value if isinstance(p, list) and len(p) >= 6]
        return polygons or None
    return None


def read_coco_folder(root: Path, task_type: str) -> Folder:
    """Reads ``annotations/*.json`` (one COCO file per split) and finds ``images/<split>/``."""
    if task_type not in COCO_TASKS:
        raise LoupeInputError(
            f"COCO folders hold object_detection or instance_segmentation datasets, not "
            f"{task_type}; other tasks use dataset.yaml and CSVs."
        )
    files = sorted((root / "annotations").glob("*.json"))
    if not files:
        raise LoupeInputError(
            f"{root / 'annotations'} holds no .json files (one COCO file per split, e.g. "
            "instances_train.json)."
        )
    images_root = root / "images"
    if not images_root.is_dir():
        raise LoupeInputError(f"{root} has no images/ folder (images/<split>/<file_name>).")
    class_names: Dict[str, None] = {}
    samples: List[Dict[str, Any]] = []
    seen: Dict[str, str] = {}
    for path in files:
        split = _split_name(path)
        try:
            coco = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as error:
            raise LoupeInputError(f"{path.name} is not valid JSON: {error}") from None
        if not isinstance(coco, dict) or not isinstance(coco.get("images"), list):
            raise LoupeInputError(f"{path.name} is not a COCO file: it has no images list.")
        categories = {c["id"]: str(c["name"]) for c in coco.get("categories") or []}
        for category_id in sorted(categories):
            class_names.setdefault(categories[category_id], None)
        by_image: Dict[Any, List[Dict[str, Any]]] = {}
        for annotation in coco.get("annotations") or []:
            by_image.setdefault(annotation.get("image_id"), []).append(annotation)
        missing: List[str] = []
        for image in coco["images"]:
            file_name = str(image["file_name"])
            candidates = [images_root / split / file_name, images_root / file_name]
            found = next((c for c in candidates if c.is_file()), None)
            if found is None:
                missing.append(str(candidates[0].relative_to(root)))
                continue
            if file_name in seen:
                raise LoupeInputError(
                    f"{path.name}: image {file_name!r} is also in {seen[file_name]}; sample ids "
                    "(the file names) must be unique across splits."
                )
            seen[file_name] = path.name
            objects: List[Dict[str, Any]] = []
            for annotation in by_image.get(image["id"], []):
                category = categories.get(annotation.get("category_id"))
                if category is None:
                    raise LoupeInputError(
                        f"{path.name}: annotation {annotation.get('id')} has category_id "
                        f"{annotation.get('category_id')}, which is not in categories."
                    )
                obj: Dict[str, Any] = {"label": category}
                if annotation.get("id") is not None:
                    # The server prefixes the sample id: the stored id is "<file_name>#<id>".
                    obj["id"] = str(annotation["id"])
                if annotation.get("bbox"):
                    obj["bbox"] = [float(v) for v in annotation["bbox"]]
                segmentation = _segmentation(annotation.get("segmentation"))
                if segmentation is not None:
                    obj["segmentation"] = segmentation
                obj["iscrowd"] = bool(annotation.get("iscrowd", 0))
                objects.append(obj)
            samples.append(
                {
                    "id": file_name,
                    "image": str(found.relative_to(root)),
                    "split": split,
                    "objects": objects,
                }
            )
        if missing:
            raise LoupeInputError(
                f"{path.name}: {len(missing)} image{'s' if len(missing) != 1 else ''} not found, "
                f"e.g. {', '.join(missing[:3])}."
            )
    return Folder(
        root=root,
        layout="coco",
        task_type=task_type,
        samples=samples,
        class_names=list(class_names) or None,
    )
