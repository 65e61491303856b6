"""The Loupe client: datasets, samples, media, features, prediction sets and attributions.

>>> import loupe
>>> client = loupe.Client()                       # LOUPE_URL / LOUPE_API_KEY or `loupe configure`
>>> ds = client.create_dataset("pets", "classification", class_names=["cat", "dog"])
>>> ds.upload_samples([{"id": "a.png", "image": "photos/a.png", "label": "cat"}])
{'created': 1, 'updated': 0, 'unchanged': 0}

Uploads follow the upload protocol (docs/sdk-protocol.md): rows travel in requests within a byte
budget, two at once, and a request the server finds too large (413) is sent again in pieces.
They are idempotent by id; re-running an interrupted upload continues it without duplicates,
and media the server already has is not sent again.
"""

from __future__ import annotations

import base64
import datetime as _dt
import functools
import itertools
import json
import math
import re
import sys
from array import array
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
    cast,
)

from . import _config
from ._http import LoupeError, LoupeInputError, Transport
from ._export import FORMATS as EXPORT_FORMATS
from ._export import download_export, require_empty_folder
from ._media import LocalMedia, local_media
from ._compare import COMPARISON_TIMEOUT_S, read_comparison
from ._performance import PERFORMANCE_TIMEOUT_S, ProgressLine, read_performance
from ._progress import Progress
from ._protocol import (
    MAX_ATTRIBUTIONS_PER_REQUEST,
    MAX_FEATURE_IDS_PER_REQUEST,
    MAX_FEATURE_VECTORS_PER_REQUEST,
    MAX_MISSING_MEDIA_KEYS,
    MAX_ROWS_PER_REQUEST,
    UPLOAD_ATTRIBUTION_BATCH_ROWS,
    UPLOAD_BACKOFF_S,
    UPLOAD_BATCH_ROWS,
    UPLOAD_BODY_BUDGET_BYTES,
    UPLOAD_MAX_BACKOFF_S,
    UPLOAD_MEDIA_IN_FLIGHT,
    UPLOAD_RETRIES,
    UPLOAD_TIMEOUT_S,
)
from ._upload import Batch, Body, BodyBudget, Endpoint, Row, upload

TASK_TYPES = (
    "classification",
    "regression",
    "object_detection",
    "instance_segmentation",
    "semantic_segmentation",
    "audio_classification",
    "automatic_speech_recognition",
)

#: The data levels of each task type; the first is the default for features.
DATA_LEVELS: Dict[str, Tuple[str, ...]] = {
    "classification": ("image",),
    "regression": ("image",),
    "object_detection": ("image", "image_object"),
    "instance_segmentation": ("image", "image_object"),
    "semantic_segmentation": ("image", "image_object"),
    "audio_classification": ("audio",),
    "automatic_speech_recognition": ("audio",),
}

UploadResult = Dict[str, int]
Sample = Mapping[str, Any]

#: Media fields of samples and predictions that local paths and bytes may fill.
SAMPLE_MEDIA_FIELDS = ("image", "audio", "mask")
PREDICTION_MEDIA_FIELDS = ("mask",)

_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)

ProgressOption = Optional[bool]


def _batches(items: Iterable[Any], size: int) -> Iterator[List[Any]]:
    iterator = iter(items)
    while True:
        batch = list(itertools.islice(iterator, size))
        if not batch:
            return
        yield batch


def _plain(value: Any) -> Any:
    """JSON for values json cannot encode itself: numpy scalars/arrays, paths, dates."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (_dt.datetime, _dt.date)):
        return _timestamp(value)
    if isinstance(value, (set, tuple)):
        return list(value)
    raise TypeError(f"{type(value).__name__} values cannot be sent as JSON")


def _timestamp(value: Union[_dt.datetime, _dt.date]) -> str:
    """ISO 8601 with an offset; naive datetimes are taken as local time, dates as midnight UTC."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.astimezone()
        return value.isoformat()
    return _dt.datetime(value.year, value.month, value.day, tzinfo=_dt.timezone.utc).isoformat()


def _len_or_none(items: Any) -> Optional[int]:
    try:
        return len(items)
    except TypeError:
        return None


def _check_format(format: str) -> None:
    if format not in EXPORT_FORMATS:
        raise LoupeInputError(f"Unknown export format {format!r}: use 'coco' or 'csv'.")


class Client:
    """A connection to one Loupe server.

    Args:
        url: the server's address, e.g. ``http://loupe.example.com:8080``. Defaults to
            ``LOUPE_URL``, then the file written by ``loupe configure``.
        api_key: your API key (web app: Settings → API key). Defaults to ``LOUPE_API_KEY``,
            then the config file.
        timeout: seconds to wait for one answer.
        retries: how many times a failed request is tried again (connection errors and answers
            the server marks retriable: 5xx, 429), with exponential backoff from ``backoff``
            seconds up to ``max_backoff``.
        workers: how many media files are uploaded in parallel.
        progress: draw progress bars (True/False); None draws them when stderr is a terminal.
        body_budget: the most bytes an upload puts in one request body (default 8 MiB). A 413
            answer lowers it to half the refused body for the rest of the client's life.
    """

    def __init__(
        self,
        url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        timeout: float = UPLOAD_TIMEOUT_S,
        retries: int = UPLOAD_RETRIES,
        backoff: float = UPLOAD_BACKOFF_S,
        max_backoff: float = UPLOAD_MAX_BACKOFF_S,
        workers: int = UPLOAD_MEDIA_IN_FLIGHT,
        progress: ProgressOption = None,
        body_budget: int = UPLOAD_BODY_BUDGET_BYTES,
    ) -> None:
        settings = _config.resolve(url, api_key)
        if not settings["url"]:
            raise LoupeInputError(
                "No Loupe server given: pass url=…, set LOUPE_URL, or run "
                "`loupe configure --url URL --api-key KEY`."
            )
        base = settings["url"].strip()
        if not re.match(r"^https?://", base, re.I):
            base = "http://" + base
        self.url = base.rstrip("/")
        self.api_key = settings["api_key"]
        self.workers = max(1, int(workers))
        self.progress = progress
        self._budget = BodyBudget(body_budget)
        try:
            self._http = Transport(
                self.url,
                self.api_key,
                timeout=timeout,
                retries=retries,
                backoff=backoff,
                max_backoff=max_backoff,
            )
        except ValueError:
            raise LoupeInputError(f"{settings['url']!r} is not a server address.") from None

    def __repr__(self) -> str:
        return f"loupe.Client({self.url!r})"

    def close(self) -> None:
        """Closes the client's connections (also done when it is garbage-collected)."""
        self._http.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- plumbing

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """Calls any API route, e.g. ``client.request("GET", "/api/models")``; answers its JSON."""
        return self._http.request(method, path, **kwargs)

    def _require_key(self) -> None:
        if not self.api_key:
            raise LoupeInputError(
                "No API key given: pass api_key=…, set LOUPE_API_KEY, or run "
                "`loupe configure --url URL --api-key KEY` (the key is in the web app under "
                "Settings → API key)."
            )

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        self._require_key()
        return self._http.request(method, path, **kwargs)

    # ---- instance

    def health(self) -> Dict[str, Any]:
        """``GET /api/health``: ``{status, version, database}``; needs no key."""
        return dict(self._http.request("GET", "/api/health", authenticate=False))

    def state(self) -> Dict[str, Any]:
        """``GET /api/state``: the application state, with ``user`` (who the key belongs to)."""
        return dict(self._http.request("GET", "/api/state"))

    def license(self) -> Dict[str, Any]:
        """The instance license: ``{state: LICENSED|UNLICENSED|EXPIRED, expiration_ts, …}``."""
        return dict(self._call("GET", "/api/settings/license"))

    def set_license(self, key: str) -> Tuple[str, Dict[str, Any]]:
        """Enters a license key when the instance needs one (admins only).

        Answers ``(action, license)`` where action is ``"submitted"`` (there was none),
        ``"replaced"`` (it had expired) or ``"unchanged"`` (already licensed: nothing sent).
        """
        current = self.license()
        if current.get("state") == "LICENSED":
            return "unchanged", current
        if current.get("state") == "EXPIRED":
            return "replaced", self._call("PUT", "/api/settings/license", json_body={"key": key})
        return "submitted", self._call("POST", "/api/settings/license", json_body={"key": key})

    # ---- datasets

    def datasets(self) -> List["Dataset"]:
        """Every dataset of the instance."""
        return [Dataset(self, data) for data in self._call("GET", "/api/datasets")]

    def create_dataset(
        self,
        name: str,
        task_type: str,
        class_names: Optional[Sequence[str]] = None,
        value_names: Optional[Sequence[str]] = None,
        description: str = "",
        label_map: Optional[Mapping[Any, str]] = None,
        exist_ok: bool = False,
    ) -> "Dataset":
        """Creates a dataset.

        Args:
            name: unique on the instance.
            task_type: one of :data:`TASK_TYPES`.
            class_names: the classes, in order; when given, labels must be among them (otherwise
                classes are learned from the labels uploaded).
            value_names: regression targets, in order (required for regression).
            description: free text.
            label_map: semantic segmentation: mask pixel value → class name.
            exist_ok: answer the existing dataset of that name and task instead of failing.
        """
        if task_type not in TASK_TYPES:
            raise LoupeInputError(
                f"Unknown task type {task_type!r}: use one of {', '.join(TASK_TYPES)}."
            )
        body: Dict[str, Any] = {
            "name": name,
            "task_type": task_type,
            "description": description,
            "exist_ok": exist_ok,
        }
        if class_names is not None:
            body["class_names"] = list(class_names)
        if value_names is not None:
            body["value_names"] = list(value_names)
        if label_map is not None:
            body["label_map"] = {str(k): str(v) for k, v in label_map.items()}
        return Dataset(self, self._call("POST", "/api/datasets", json_body=body))

    def get_dataset(self, id_or_name: str) -> "Dataset":
        """A dataset by id, or by name when no dataset has that id."""
        if _UUID.match(id_or_name):
            try:
                return Dataset(self, self._call("GET", f"/api/datasets/{id_or_name}"))
            except LoupeError as error:
                if error.status != 404:
                    raise
        for dataset in self.datasets():
            if dataset.name == id_or_name:
                return dataset
        raise LoupeError(404, f"No dataset named or with id {id_or_name!r}.")

    def delete_dataset(self, dataset: Union[str, "Dataset"]) -> None:
        """Deletes a dataset (by id, name or object) with all its samples, media and predictions."""
        target = dataset if isinstance(dataset, Dataset) else self.get_dataset(dataset)
        self._call("DELETE", f"/api/datasets/{target.id}")

    # ---- exports (docs/formats.md, "Exporting")

    def export_subset(
        self,
        dataset: Union[str, "Dataset"],
        subset: str,
        format: str,
        out_dir: Union[str, Path],
        predictions: Optional[str] = None,
    ) -> Dict[str, Any]:
        """Downloads a subset as a folder in the COCO or CSV layout and unpacks it into
        ``out_dir``, which must be empty or new.

        Args:
            dataset: the dataset (object, id or name).
            subset: the subset's name or id.
            format: ``"coco"`` (object detection, instance segmentation) or ``"csv"`` (any task).
            out_dir: an empty or new folder.
            predictions: also export this prediction set (a model's name or id): a COCO results
                file or a prediction CSV.

        Answers ``{"out", "filename", "files", "bytes"}``. What the folder holds is what
        :meth:`import_folder` reads back.
        """
        _check_format(format)
        require_empty_folder(out_dir)
        target = dataset if isinstance(dataset, Dataset) else self.get_dataset(dataset)
        subsets = self._call("GET", f"/api/datasets/{target.id}/subsets")
        found = next((s for s in subsets if s["id"] == subset), None) or next(
            (s for s in subsets if s["name"] == subset), None
        )
        if found is None:
            raise LoupeError(404, f"No subset named or with id {subset!r} in {target.name!r}.")
        query: Dict[str, Any] = {"format": format}
        if predictions is not None:
            query["predictions_id"] = target._prediction_set_id(predictions)
        self._require_key()
        return download_export(
            self._http,
            "GET",
            f"/api/datasets/{target.id}/subsets/{found['id']}/export",
            out_dir,
            query=query,
        )

    def export_items(
        self,
        dataset: Union[str, "Dataset"],
        item_ids: Iterable[str],
        data_level: str,
        format: str,
        out_dir: Union[str, Path],
        name: Optional[str] = None,
        predictions: Optional[str] = None,
    ) -> Dict[str, Any]:
        """Downloads chosen items (ids of one data level: ``image``, ``image_object`` or
        ``audio``) as a COCO or CSV folder into ``out_dir``, like :meth:`export_subset`. At the
        ``image_object`` level the folder holds the objects' images with only those objects.
        ``name`` names the archive (default ``"selection"``)."""
        _check_format(format)
        require_empty_folder(out_dir)
        target = dataset if isinstance(dataset, Dataset) else self.get_dataset(dataset)
        body: Dict[str, Any] = {
            "format": format,
            "data_level": data_level,
            "item_ids": list(item_ids),
        }
        if name is not None:
            body["name"] = name
        if predictions is not None:
            body["predictions_id"] = target._prediction_set_id(predictions)
        self._require_key()
        return download_export(
            self._http, "POST", f"/api/datasets/{target.id}/export", out_dir, json_body=body
        )

    def compare(
        self,
        prediction_set_a: "PredictionSet",
        prediction_set_b: "PredictionSet",
        metric: Optional[str] = None,
        split: Optional[str] = None,
        regression_value_name: Optional[str] = None,
        wait: bool = True,
        timeout: float = COMPARISON_TIMEOUT_S,
        *,
        subsets: bool = False,
        progress: ProgressOption = None,
    ) -> Dict[str, Any]:
        """Model B compared with model A, two prediction sets of one dataset, as the comparison
        page shows it: see :meth:`PredictionSet.compare`."""
        return prediction_set_a.compare(
            prediction_set_b,
            metric,
            split,
            regression_value_name,
            wait,
            timeout,
            subsets=subsets,
            progress=progress,
        )

    def import_folder(
        self,
        path: Union[str, Path],
        name: str,
        task_type: str,
        exist_ok: bool = False,
        *,
        layout: Optional[str] = None,
        description: str = "",
        batch_size: int = UPLOAD_BATCH_ROWS,
        progress: ProgressOption = None,
        splits: Optional[Mapping[str, str]] = None,
        predictions: Optional[Mapping[str, str]] = None,
    ) -> "Dataset":
        """Creates a dataset from a folder in the CSV layout or the COCO layout.

        The CSV layout holds ``dataset.yaml`` and one CSV per split; the COCO layout holds
        ``annotations/`` (one COCO json per split) and ``images/<split>/``. See docs/formats.md.
        ``layout`` forces ``"csv"`` or ``"coco"``; by default it is detected. ``splits``
        (``{"train": "train.csv"}``) names the sample CSVs, ``predictions``
        (``{"A": "predictions_A.csv"}``) prediction CSVs uploaded as prediction sets after the
        samples; paths are relative to the folder. Answers the dataset with its counts
        refreshed; its ``upload_result`` holds ``{created, updated, unchanged}`` and its
        ``imported_prediction_sets`` the ``PredictionSet``s uploaded.
        """
        from .importers import read_folder

        folder = read_folder(
            path, task_type, layout=layout, splits=splits, predictions=predictions
        )
        dataset = self.create_dataset(
            name,
            task_type,
            class_names=folder.class_names,
            value_names=folder.value_names,
            description=description,
            label_map=folder.label_map,
            exist_ok=exist_ok,
        )
        dataset.upload_samples(
            folder.samples,
            batch_size=batch_size,
            progress=progress,
            base_dir=folder.root,
        )
        uploaded = [
            dataset.upload_predictions(
                set_name, rows, batch_size=batch_size, progress=progress, base_dir=folder.root
            )
            for set_name, rows in folder.prediction_sets
        ]
        dataset.refresh()
        dataset.imported_prediction_sets = uploaded
        return dataset

    # ---- media (shared by datasets and prediction sets)

    def _prepare_media(
        self,
        dataset_id: str,
        rows: List[Dict[str, Any]],
        fields: Sequence[str],
        offset: int,
        base_dir: Optional[Path],
    ) -> None:
        """Replaces local paths and bytes in ``fields`` by blob keys, uploading what is missing."""
        pending: Dict[str, LocalMedia] = {}
        for index, row in enumerate(rows):
            for field in fields:
                value = row.get(field)
                if value is None or isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
                    continue  # absent, or numbers (a heatmap given as rows)
                try:
                    media = local_media(value, base_dir)
                except (OSError, ValueError, TypeError) as problem:
                    raise LoupeInputError(
                        f"Cannot read the {field} of row {offset + index}: {problem}.",
                        [
                            {
                                "row": offset + index,
                                "id": row.get("id"),
                                "field": field,
                                "message": str(problem),
                            }
                        ],
                    ) from None
                if media is None:
                    if not isinstance(value, str):
                        row[field] = str(value)
                    continue
                pending.setdefault(media.key, media)
                row[field] = media.key
        self._upload_media(dataset_id, pending)

    def _upload_media(self, dataset_id: str, pending: Mapping[str, LocalMedia]) -> None:
        if not pending:
            return
        keys = list(pending)
        missing: List[str] = []
        for part in _batches(keys, MAX_MISSING_MEDIA_KEYS):
            answer = self._call(
                "POST", f"/api/datasets/{dataset_id}/media/missing", json_body={"keys": part}
            )
            missing.extend(answer["missing"])
        if not missing:
            return

        def send(key: str) -> None:
            media = pending[key]
            answer = self._call(
                "POST",
                f"/api/datasets/{dataset_id}/media",
                body=media.read(),
                content_type=media.content_type,
                keep_alive=False,  # worker threads end with the batch
            )
            if answer.get("key") != key:
                raise LoupeError(
                    0,
                    f"The server stored {media.path or 'the bytes'} as {answer.get('key')}, "
                    f"expected {key}: was the file changed during the upload?",
                )

        if len(missing) == 1 or self.workers == 1:
            for key in missing:
                send(key)
            return
        with ThreadPoolExecutor(max_workers=min(self.workers, len(missing))) as pool:
            for future in [pool.submit(send, key) for key in missing]:
                future.result()

    def _progress(self, label: str, total: Optional[int], override: ProgressOption) -> Progress:
        return Progress(label, total, self.progress if override is None else override)

    # ---- uploads (docs/sdk-protocol.md)

    def _endpoint(self, path: str, body: Union[Body, "_FloatBody"], max_rows: int) -> Endpoint:
        def post(data: bytes) -> Any:
            return self._call("POST", path, body=data, content_type="application/json")

        return Endpoint(body.of, body.envelope, max_rows, post)

    def _upload_rows(
        self,
        dataset_id: str,
        path: str,
        key: str,
        items: Iterable[Mapping[str, Any]],
        *,
        batch_size: int,
        max_rows: int,
        media_fields: Sequence[str],
        base_dir: Optional[Path],
        bar: Progress,
        landed: Callable[[Mapping[str, Any]], None],
        fields: Callable[[Dict[str, str]], Mapping[str, Any]],
        metadata_types: Optional[Mapping[str, str]] = None,
    ) -> None:
        """Uploads rows of dicts to ``path`` as ``{<fields>, key: [rows]}``: batch by batch, each
        batch's rows converted and its media uploaded while the requests before it are in flight.
        ``fields`` makes a batch's other fields from its metadata types."""

        def batches() -> Iterator[Batch]:
            offset = 0
            for batch in _batches(items, max(1, min(int(batch_size), max_rows))):
                types = dict(metadata_types or {})
                rows = _prepare_rows(batch, offset, types)
                self._prepare_media(dataset_id, rows, media_fields, offset, base_dir)
                endpoint = self._endpoint(path, Body(key, fields(types)), max_rows)
                yield _json_rows(rows, offset), endpoint
                offset += len(batch)

        def on_landed(rows: List[Row], answer: Any) -> None:
            bar.update(len(rows))
            landed(answer)

        upload(self._budget, batches(), on_landed)


def _prepare_rows(
    rows: Iterable[Mapping[str, Any]], offset: int, metadata_types: Dict[str, str]
) -> List[Dict[str, Any]]:
    """Copies rows, turning datetime metadata into ISO strings (declared as timestamps) and NaN
    metadata into null."""
    prepared: List[Dict[str, Any]] = []
    for index, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise LoupeInputError(
                f"Row {offset + index} is a {type(row).__name__}, not a dict.",
                [{"row": offset + index, "field": "(row)", "message": "expected a dict"}],
            )
        copy = dict(row)
        if "id" in copy and not isinstance(copy["id"], str) and copy["id"] is not None:
            copy["id"] = str(copy["id"])
        metadata = copy.get("metadata")
        if isinstance(metadata, Mapping):
            clean: Dict[str, Any] = {}
            for key, value in metadata.items():
                if hasattr(value, "item") and not isinstance(value, (str, bytes, _dt.date)):
                    value = value.item()  # numpy scalars (datetime64 becomes a datetime)
                if isinstance(value, (_dt.datetime, _dt.date)):
                    metadata_types.setdefault(key, "timestamp")
                    value = _timestamp(value)
                if isinstance(value, float) and not math.isfinite(value):
                    value = None  # NaN marks a missing value (pandas); infinities too
                clean[key] = value
            copy["metadata"] = clean
        prepared.append(copy)
    return prepared


def _check_json(rows: List[Dict[str, Any]], offset: int) -> None:
    """Finds the row json cannot encode (NaN values, odd types) before sending."""
    for index, row in enumerate(rows):
        for field, value in row.items():
            try:
                json.dumps(value, allow_nan=False, default=_plain)
            except (TypeError, ValueError) as problem:
                raise LoupeInputError(
                    f"Row {offset + index} cannot be sent: {field}: {problem}.",
                    [
                        {
                            "row": offset + index,
                            "id": row.get("id"),
                            "field": field,
                            "message": str(problem),
                        }
                    ],
                ) from None


def _json_rows(rows: List[Dict[str, Any]], offset: int) -> List[Row]:
    """Serialises each row once: its JSON is both measured (ASCII, so characters are bytes) and
    sent."""
    out: List[Row] = []
    for index, row in enumerate(rows):
        try:
            text = json.dumps(row, allow_nan=False, default=_plain, separators=(",", ":"))
        except (TypeError, ValueError):
            _check_json([row], offset + index)
            raise
        row_id = row.get("id")
        row_id = row_id if isinstance(row_id, str) else None
        out.append(Row(offset + index, row_id, len(text) + 1, text))
    return out


def _add(totals: Dict[str, int], result: Mapping[str, Any]) -> None:
    for key in ("created", "updated", "unchanged"):
        totals[key] = totals.get(key, 0) + int(result.get(key, 0))


def _feature_row(index: int, item_id: str, numbers: Sequence[float], binary: bool) -> Row:
    """A vector ready to send: little-endian float32 bytes, or ``"id":[numbers]`` as JSON."""
    key = json.dumps(item_id)
    if binary:
        floats = cast(array, numbers)
        if sys.byteorder == "big":
            floats.byteswap()
        # base64 of the vector's bytes, rounded up: the body's size within a few bytes
        return Row(index, item_id, len(key) + 1 + -(-len(floats) * 16 // 3), floats.tobytes())
    text = f"{key}:{json.dumps(numbers, allow_nan=False, separators=(',', ':'))}"
    return Row(index, item_id, len(text) + 1, text)


class _FloatBody:
    """The binary form of a feature upload: ``{…, "dimension", "ids": [...], "data": base64}``."""

    def __init__(self, fields: Mapping[str, Any], dimension: int) -> None:
        start = json.dumps({**fields, "dimension": dimension}, separators=(",", ":"))[:-1]
        self._head = start + ',"ids":['
        self.envelope = len(self._head) + len('],"data":""}')

    def of(self, rows: List[Row]) -> bytes:
        ids = ",".join(json.dumps(row.id) for row in rows)
        data = base64.b64encode(b"".join(row.data for row in rows)).decode("ascii")
        return f'{self._head}{ids}],"data":"{data}"}}'.encode("ascii")


class _ServerObject:
    """Something the server answered for: its answer is ``data``, and its fields read as
    attributes (``obj.samples_count``)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data: Dict[str, Any] = dict(data)
        #: The totals of the latest upload to this object.
        self.upload_result: UploadResult = {"created": 0, "updated": 0, "unchanged": 0}

    def __getattr__(self, name: str) -> Any:
        data = self.__dict__.get("data", {})
        if name in data:
            return data[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def name(self) -> str:
        return str(self.data["name"])


class Dataset(_ServerObject):
    """A dataset on the server. Attributes mirror the server's answer (``id``, ``name``,
    ``task_type``, ``class_names``, ``samples_count``, ``objects_count``, ``splits``, …); the raw
    answer is ``data``. Call :meth:`refresh` to read the counts again after uploads.
    ``upload_result`` holds the totals of the latest upload_samples call (also set by
    Client.import_folder)."""

    def __init__(self, client: Client, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.client = client
        #: The prediction sets Client.import_folder uploaded after the samples.
        self.imported_prediction_sets: List["PredictionSet"] = []

    @property
    def task_type(self) -> str:
        return str(self.data["task_type"])

    @property
    def class_names(self) -> List[str]:
        return list(self.data.get("class_names") or [])

    @property
    def value_names(self) -> List[str]:
        return list(self.data.get("regression_value_names") or [])

    @property
    def samples_count(self) -> int:
        return int(self.data.get("samples_count") or 0)

    def __repr__(self) -> str:
        return (
            f"<loupe.Dataset {self.name!r} {self.task_type} id={self.id} "
            f"samples={self.samples_count}>"
        )

    def refresh(self) -> "Dataset":
        """Reads the dataset again (counts, classes, splits); answers itself."""
        self.data = dict(self.client._call("GET", f"/api/datasets/{self.id}"))
        return self

    def delete(self) -> None:
        """Deletes this dataset with everything in it."""
        self.client.delete_dataset(self)

    # ---- samples

    def upload_samples(
        self,
        samples: Iterable[Sample],
        batch_size: int = UPLOAD_BATCH_ROWS,
        metadata_types: Optional[Mapping[str, str]] = None,
        progress: ProgressOption = None,
        *,
        base_dir: Union[str, Path, None] = None,
    ) -> UploadResult:
        """Uploads samples (dicts) in batches; answers ``{created, updated, unchanged}``.

        Each sample has an ``id`` and, per task, ``image``/``audio``, ``split``, ``label``,
        ``labels``, ``values``, ``objects``, ``mask``, ``transcript`` and ``metadata`` (see
        docs/sdk-python.md). ``image``, ``audio`` and ``mask`` may be a local path, bytes, an
        http(s) URL or a :class:`loupe.ServerPath`; local files are uploaded once (only those
        the server lacks) and replaced by their ``blob:`` key. Relative paths are taken from
        ``base_dir`` (default: the working directory).

        ``metadata_types`` declares metadata types (``numeric``, ``string``, ``boolean``,
        ``timestamp``); ``datetime`` values are declared ``timestamp`` automatically.
        Re-uploading an id updates that sample, so running an interrupted upload again completes
        it. ``batch_size`` rows (at most 20,000) are read and prepared at a time and sent in
        requests of at most 8 MiB (docs/sdk-protocol.md). Raises :class:`loupe.LoupeError` for a
        rejected request (earlier ones stay).
        """
        totals: UploadResult = {"created": 0, "updated": 0, "unchanged": 0}
        with self.client._progress("uploading samples", _len_or_none(samples), progress) as bar:
            self.client._upload_rows(
                self.id,
                f"/api/datasets/{self.id}/samples",
                "samples",
                samples,
                batch_size=batch_size,
                max_rows=MAX_ROWS_PER_REQUEST,
                media_fields=SAMPLE_MEDIA_FIELDS,
                base_dir=Path(base_dir) if base_dir is not None else None,
                bar=bar,
                landed=functools.partial(_add, totals),
                fields=lambda types: {"metadata_types": types} if types else {},
                metadata_types=metadata_types,
            )
        self.upload_result = totals
        return totals

    # ---- features

    def upload_features(
        self,
        name: str,
        vectors: Union[Mapping[str, Sequence[float]], Iterable[Tuple[str, Sequence[float]]]],
        data_level: Optional[str] = None,
        *,
        binary: bool = True,
        progress: ProgressOption = None,
    ) -> Dict[str, Any]:
        """Uploads a named feature: one vector (all of the same length) per sample or object id.

        ``vectors`` is ``{id: [floats]}`` (or pairs; numpy arrays work too). ``data_level``
        defaults to the task's first level (``image`` or ``audio``); use ``image_object`` for
        object ids. Vectors travel as little-endian float32 (``binary=False`` sends JSON
        lists). Answers the feature's info ``{name, data_level, size, num_present, …}``.
        """
        return self._send_features(
            f"/api/datasets/{self.id}/features",
            name,
            vectors,
            data_level,
            binary=binary,
            progress=progress,
        )

    def _send_features(
        self,
        path: str,
        name: str,
        vectors: Union[Mapping[str, Sequence[float]], Iterable[Tuple[str, Sequence[float]]]],
        data_level: Optional[str],
        *,
        binary: bool,
        progress: ProgressOption,
    ) -> Dict[str, Any]:
        """Sends a feature to ``path``: the dataset's features, or a prediction set's."""
        level = data_level or DATA_LEVELS[self.task_type][0]
        # An id given twice keeps its last vector (two requests in flight would not say which).
        items = vectors.items() if isinstance(vectors, Mapping) else vectors
        by_id = {str(item_id): vector for item_id, vector in items}
        if not by_id:
            raise LoupeInputError("No vectors given.")
        dimension: Optional[int] = None
        rows: List[Row] = []
        for index, (item_id, vector) in enumerate(by_id.items()):
            if not isinstance(vector, array) and hasattr(vector, "tolist"):
                vector = vector.tolist()  # numpy
            try:
                numbers: Sequence[float] = (
                    array("f", vector) if binary else [float(v) for v in vector]
                )
            except (TypeError, ValueError):
                numbers = []
                message = "values must be numbers"
            else:
                dimension = len(numbers) if dimension is None else dimension
                message = (
                    f"expected {dimension} values like the first vector, got {len(numbers)}"
                    if len(numbers) != dimension
                    # after the float32 conversion, so values too large for it are caught too
                    else "" if all(map(math.isfinite, numbers)) else "values must be finite numbers"
                )
            if message:
                raise LoupeInputError(
                    f"Vector {index} (id {item_id}): {message}.",
                    [{"row": index, "id": item_id, "field": "vector", "message": message}],
                )
            rows.append(_feature_row(index, item_id, numbers, binary))
        if not dimension:
            raise LoupeInputError("Vectors must have at least one value.")
        head = {"name": name, "data_level": level}
        body = _FloatBody(head, dimension) if binary else Body("vectors", head, brackets="{}")
        max_rows = MAX_FEATURE_IDS_PER_REQUEST if binary else MAX_FEATURE_VECTORS_PER_REQUEST
        info: Dict[str, Any] = {}

        def landed(part: List[Row], answer: Any) -> None:
            nonlocal info
            # Two requests in flight may answer out of order: keep the fuller count.
            if not info or int(answer.get("num_present", 0)) >= int(info.get("num_present", 0)):
                info = dict(answer)
            bar.update(len(part))

        with self.client._progress("uploading features", len(rows), progress) as bar:
            endpoint = self.client._endpoint(path, body, max_rows)
            upload(self.client._budget, [(rows, endpoint)], landed)
        return info

    def features(self) -> List[Dict[str, Any]]:
        """The dataset's features (uploaded and computed)."""
        return list(self.client._call("GET", f"/api/datasets/{self.id}/features"))

    # ---- prediction sets

    def create_prediction_set(self, name: str, exist_ok: bool = True) -> "PredictionSet":
        """Creates a prediction set (a model), or answers the existing one of that name."""
        data = self.client._call(
            "POST",
            f"/api/datasets/{self.id}/predictions",
            json_body={"name": name, "exist_ok": exist_ok},
        )
        return PredictionSet(self, data)

    def prediction_sets(self) -> List["PredictionSet"]:
        """The dataset's prediction sets."""
        answer = self.client._call("GET", "/api/dataset/models", query={"dataset_id": self.id})
        return [PredictionSet(self, data) for data in answer]

    def _prediction_set_id(self, name_or_id: str) -> str:
        return self.prediction_set(name_or_id).id

    def prediction_set(self, name_or_id: str) -> "PredictionSet":
        """A prediction set (model) of the dataset by id, or by name when none has that id."""
        sets = self.prediction_sets()
        found = next((p for p in sets if p.id == name_or_id), None) or next(
            (p for p in sets if p.name == name_or_id), None
        )
        if found is None:
            raise LoupeError(
                404, f"No prediction set (model) named or with id {name_or_id!r} in {self.name!r}."
            )
        return found

    def subsets(self) -> List[Dict[str, Any]]:
        """The dataset's subsets (``id``, ``name``, ``data_level``, ``num_items``, …)."""
        return list(self.client._call("GET", f"/api/datasets/{self.id}/subsets"))

    def upload_predictions(
        self,
        name: str,
        predictions: Iterable[Mapping[str, Any]],
        batch_size: int = UPLOAD_BATCH_ROWS,
        exist_ok: bool = True,
        progress: ProgressOption = None,
        *,
        base_dir: Union[str, Path, None] = None,
    ) -> "PredictionSet":
        """Creates (or reuses, with ``exist_ok``) the prediction set ``name`` and uploads its
        predictions: dicts with ``id`` (the sample's) and ``label``, ``score``,
        ``probabilities``, ``values``, ``objects`` (each with ``score``), ``mask`` or
        ``transcript``. Answers the prediction set; its ``upload_result`` holds the totals."""
        prediction_set = self.create_prediction_set(name, exist_ok=exist_ok)
        prediction_set.upload_predictions(
            predictions, batch_size=batch_size, progress=progress, base_dir=base_dir
        )
        return prediction_set.refresh()


class PredictionSet(_ServerObject):
    """One model's predictions for a dataset (``id``, ``name``, ``num_present``,
    ``num_missing``; the raw answer is ``data``)."""

    def __init__(self, dataset: Dataset, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.dataset = dataset

    def __repr__(self) -> str:
        return (
            f"<loupe.PredictionSet {self.name!r} of {self.dataset.name!r} "
            f"present={self.data.get('num_present')} missing={self.data.get('num_missing')}>"
        )

    @property
    def _path(self) -> str:
        return f"/api/datasets/{self.dataset.id}/predictions/{self.id}"

    def upload_features(
        self,
        name: str,
        vectors: Union[Mapping[str, Sequence[float]], Iterable[Tuple[str, Sequence[float]]]],
        data_level: Optional[str] = None,
        *,
        binary: bool = True,
        progress: ProgressOption = None,
    ) -> Dict[str, Any]:
        """Uploads the model's own feature (e.g. its penultimate layer): one vector per sample
        or object id, sent and answered like :meth:`Dataset.upload_features`. It is listed
        beside the dataset's features, not among them."""
        return self.dataset._send_features(
            f"{self._path}/features", name, vectors, data_level, binary=binary, progress=progress
        )

    def features(self) -> Dict[str, Any]:
        """``{"predictions_features": [...], "dataset_features": [...]}``: the model's own
        features and the dataset's."""
        return dict(self.dataset.client._call("GET", f"{self._path}/features"))

    def performance(
        self,
        split: Optional[str] = None,
        wait: bool = True,
        timeout: float = PERFORMANCE_TIMEOUT_S,
        *,
        subsets: bool = False,
        progress: ProgressOption = None,
    ) -> Dict[str, Any]:
        """The model's performance as its page shows it: ``{"statistics", "overall"}``, and
        with ``subsets=True`` also ``"subsets"`` (the subsets enabled for performance, computed
        over ``split``, default ``"all"``).

        ``statistics`` holds ``splits`` ('all' first), ``num_items``, ``num_missing`` and one
        ``{metric_name, values: [{split_name, value}]}`` per metric; ``overall`` holds
        ``primary_key`` (class, word or value_name), ``metrics`` and per split the ``rows``
        ``{key, values: {metric: value}}``. Values are fractions for percentages (0.8 is
        80 %) and None where undefined. The server computes them in the background the first
        time (and after the data changes): with ``wait`` this polls every second until they are
        ready, drawing progress on a terminal (``progress``), and raises
        :class:`loupe.LoupeError` when the computation failed or takes longer than ``timeout``
        seconds (retriable). ``wait=False`` answers at once, with ``status`` (computing, ready,
        failed) and ``progress`` in each part.
        """
        client = self.dataset.client
        line = ProgressLine(client.progress if progress is None else progress)
        try:
            return read_performance(
                client._call,
                self._path,
                subsets=subsets,
                split=split,
                wait=wait,
                timeout=timeout,
                on_progress=line.update,
            )
        finally:
            line.close()

    def compare(
        self,
        other: Union["PredictionSet", str],
        metric: Optional[str] = None,
        split: Optional[str] = None,
        regression_value_name: Optional[str] = None,
        wait: bool = True,
        timeout: float = COMPARISON_TIMEOUT_S,
        *,
        subsets: bool = False,
        progress: ProgressOption = None,
    ) -> Dict[str, Any]:
        """``other`` (a PredictionSet, or a model of the dataset by name or id) as model B
        compared with this model as model A, as the comparison page shows it.

        Answers the server's comparison: ``task``, ``metric`` (the active one: ``metric``, else
        the task's first), ``overall`` (every comparison metric:
        ``{model_a, model_b, raw_delta, relative_delta, better}``, deltas B − A, relative in
        percent of |A|, ``better`` ``"model_a_is_better"`` or ``"model_b_is_better"`` by the
        metric's direction), ``other_metrics``, ``per_class`` or ``per_word`` (the active metric
        per entity: a list per category, ``per_class_unavailable`` for accuracy), ``per_sample``
        (per mask for semantic segmentation), ``per_object_gt`` and ``per_object_pred`` (with
        ``subcategories``): each category's ``num_items`` and ``fraction_of_total_items``. With
        ``subsets=True`` also ``"subsets"``: both models on each subset enabled for performance,
        ``{"comparison_per_subset": {…}, "pending_subsets": [...]}``. ``split`` defaults to
        ``"all"``; ``regression_value_name`` picks one regression value (default: all,
        averaged). Waits like :meth:`performance` (``computing comparison  40%``, ``timeout``
        seconds, then a retriable :class:`loupe.LoupeError`); ``wait=False`` answers at once
        with ``status`` and ``progress``. A refusal (the same model twice, a metric the task
        lacks) raises LoupeError with the server's description.
        """
        dataset = self.dataset
        if isinstance(other, str):
            other = dataset.prediction_set(other)
        if other.dataset.id != dataset.id:
            raise LoupeInputError(
                f"Model A {self.name!r} and model B {other.name!r} belong to different datasets: "
                "compare two models of one dataset."
            )
        client = dataset.client
        line = ProgressLine(client.progress if progress is None else progress, what="comparison")
        try:
            return read_comparison(
                client._call,
                dataset.id,
                self.id,
                other.id,
                metric=metric,
                split=split,
                regression_value_name=regression_value_name,
                subsets=subsets,
                wait=wait,
                timeout=timeout,
                on_progress=line.update,
            )
        finally:
            line.close()

    def refresh(self) -> "PredictionSet":
        """Reads the set again (num_present, num_missing); answers itself."""
        for candidate in self.dataset.prediction_sets():
            if candidate.id == self.id:
                self.data = candidate.data
                return self
        raise LoupeError(404, f"The prediction set {self.name!r} no longer exists.")

    def upload_predictions(
        self,
        predictions: Iterable[Mapping[str, Any]],
        batch_size: int = UPLOAD_BATCH_ROWS,
        progress: ProgressOption = None,
        *,
        base_dir: Union[str, Path, None] = None,
    ) -> UploadResult:
        """Uploads predictions in batches (idempotent by sample id); answers the totals."""
        totals: UploadResult = {"created": 0, "updated": 0, "unchanged": 0}
        client = self.dataset.client
        with client._progress("uploading predictions", _len_or_none(predictions), progress) as bar:
            client._upload_rows(
                self.dataset.id,
                f"{self._path}/items",
                "predictions",
                predictions,
                batch_size=batch_size,
                max_rows=MAX_ROWS_PER_REQUEST,
                media_fields=PREDICTION_MEDIA_FIELDS,
                base_dir=Path(base_dir) if base_dir is not None else None,
                bar=bar,
                landed=functools.partial(_add, totals),
                fields=lambda types: {},
            )
        self.upload_result = totals
        return totals

    def upload_attributions(
        self,
        attributions: Iterable[Mapping[str, Any]],
        name: str = "attribution",
        batch_size: int = UPLOAD_ATTRIBUTION_BATCH_ROWS,
        progress: ProgressOption = None,
        *,
        base_dir: Union[str, Path, None] = None,
    ) -> Dict[str, int]:
        """Uploads attribution heatmaps: dicts ``{id, heatmap}`` where heatmap is rows of
        numbers (a 2-D list or array) or an image (path, bytes or URL). Answers ``{uploaded}``."""
        client = self.dataset.client
        uploaded = 0

        def landed(answer: Mapping[str, Any]) -> None:
            nonlocal uploaded
            uploaded += int(answer.get("uploaded", 0))

        with client._progress(
            "uploading attributions", _len_or_none(attributions), progress
        ) as bar:
            client._upload_rows(
                self.dataset.id,
                f"{self._path}/attributions",
                "attributions",
                attributions,
                batch_size=batch_size,
                max_rows=MAX_ATTRIBUTIONS_PER_REQUEST,
                media_fields=("heatmap",),
                base_dir=Path(base_dir) if base_dir is not None else None,
                bar=bar,
                landed=landed,
                fields=lambda types: {"name": name},
            )
        return {"uploaded": uploaded}
