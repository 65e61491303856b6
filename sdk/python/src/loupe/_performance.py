"""A model's performance as its page shows it (docs/model-performance.md in the Loupe
repository): statistics per split, the table per class, word or value name, and optionally the
subsets enabled for performance. The server computes it in a job that reading it starts, so a
caller that waits polls every second until it is ready.

The metric titles and types are those of ``packages/metrics/src/catalogue.ts`` and the
formatting is its ``formatByType``, so ``loupe performance`` prints what the TypeScript CLI and
the web app print; a test of this package compares the two files.
"""

from __future__ import annotations

import math
import sys
import time
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, TextIO

from ._http import LoupeError

#: The split that holds every item.
ALL_SPLITS = "all"
#: Seconds between polls while the performance is being computed.
PERFORMANCE_POLL_S = 1.0
#: Seconds a caller waits for the performance by default.
PERFORMANCE_TIMEOUT_S = 600.0
#: PERFORMANCE_MESSAGES.failed of packages/contracts/src/performance.ts.
FAILED_MESSAGE = "Computing the performance failed."

#: Metric id → (title, type) as in METRICS of packages/metrics/src/catalogue.ts.
METRICS: Dict[str, tuple] = {
    "equal_error_rate": ("EER", "percentage"),
    "word_error_rate": ("WER", "percentage"),
    "items": ("Items", "int"),
    "ground_truth_objects": ("Ground-truth objects", "int"),
    "predicted_objects": ("Predicted objects", "int"),
    "accuracy": ("Accuracy", "percentage"),
    "precision": ("Precision", "percentage"),
    "recall": ("Recall", "percentage"),
    "f1_score": ("F1", "percentage"),
    "macro_precision": ("Macro precision", "percentage"),
    "macro_recall": ("Macro recall", "percentage"),
    "macro_f1_score": ("Macro F1", "percentage"),
    "tp": ("TP", "int"),
    "fp": ("FP", "int"),
    "fn": ("FN", "int"),
    "tn": ("TN", "int"),
    "mAP_COCO": ("mAP", "percentage"),
    "binary_cross_entropy": ("Binary cross-entropy", "float"),
    "area_under_roc": ("Area under ROC", "percentage"),
    "average_precision": ("Average precision", "percentage"),
    "specificity": ("Specificity", "percentage"),
    "sensitivity": ("Sensitivity", "percentage"),
    "false_discovery_rate": ("False discovery rate", "percentage"),
    "false_negative_rate": ("False negative rate", "percentage"),
    "IoU": ("IoU", "percentage"),
    "mean_IoU": ("Mean IoU", "percentage"),
    "IoU_50": ("IoU at 0.5", "percentage"),
    "mean_squared_error": ("Mean squared error", "float"),
    "mean_absolute_error": ("Mean absolute error", "float"),
    "word_information_lost": ("Word information lost", "percentage"),
    "match_error_rate": ("Match error rate", "percentage"),
    "word_insertion": ("Word insertion", "int"),
    "word_deletion": ("Word deletion", "int"),
    "word_substitution": ("Word substitution", "int"),
    "frequency": ("Frequency", "percentage"),
    "count": ("Count", "int"),
}

#: Titles a task gives a metric in place of the catalogue's, as METRIC_TITLE_OVERRIDES of
#: packages/metrics/src/catalogue.ts.
METRIC_TITLE_OVERRIDES: Dict[str, Dict[str, str]] = {
    "classification": {"count": "Ground-truth annotations"},
    "audio_classification": {"count": "Ground-truth annotations"},
    "automatic_speech_recognition": {"count": "Word count"},
}

_KEY_TITLES = {"class": "Class", "word": "Word", "value_name": "Value name"}
_MISSING = "–"


# ---- formatting, as formatByType of packages/metrics/src/catalogue.ts


def _fixed(value: float, decimals: int) -> str:
    """JavaScript's ``value.toFixed(decimals)``: the exact binary value, ties away from zero."""
    if value == 0:
        value = 0.0  # toFixed never prints -0
    step = Decimal(1).scaleb(-decimals)
    return str(Decimal(value).quantize(step, rounding=ROUND_HALF_UP))


def _up_to(value: float, decimals: int) -> str:
    fixed = _fixed(value, decimals)
    return fixed.rstrip("0").rstrip(".") if "." in fixed else fixed


def format_metric_value(value: float) -> str:
    if not math.isfinite(value):
        return _MISSING
    if value == 0:
        return "0"
    if abs(value) < 0.001:
        return ">-0.001" if value < 0 else "<0.001"
    if abs(value) > 1000:
        return _fixed(value, 1)
    return _up_to(value, 3)


def format_by_type(metric_id: str, value: Optional[float]) -> str:
    """A metric value by its catalogue type: percentages with 2 decimals, ints whole, '–' for
    a value that is undefined (None)."""
    number = math.nan if value is None else float(value)
    kind = METRICS.get(metric_id, (metric_id, "float"))[1]
    if kind == "percentage":
        return _MISSING if not math.isfinite(number) else f"{_fixed(number * 100, 2)}%"
    if kind == "int":
        if not math.isfinite(number):
            return _MISSING
        whole = math.floor(number)
        return str(whole + 1 if number - whole >= 0.5 else whole)  # Math.round
    return format_metric_value(number)


def metric_title(metric_id: str, task: Optional[str] = None) -> str:
    """A metric's title in a task: the task's override, else the catalogue's, else the id
    (metricTitle of packages/metrics/src/catalogue.ts)."""
    override = METRIC_TITLE_OVERRIDES.get(task or "", {}).get(metric_id)
    return override if override is not None else str(METRICS.get(metric_id, (metric_id,))[0])


def _table(rows: Sequence[Sequence[str]]) -> str:
    """Columns separated by two spaces; the first left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in rows
    )


def performance_text(
    dataset: str, model: str, task: str, performance: Mapping[str, Any], split: str
) -> str:
    """The tables ``loupe performance`` prints (the same text as the TypeScript CLI)."""
    statistics = performance["statistics"]
    overall = performance["overall"]
    subsets = performance.get("subsets")

    def title(metric_id: str) -> str:
        return metric_title(metric_id, task)

    parts: List[str] = [
        f"Performance of model '{model}' on dataset '{dataset}' ({task})\n"
        f"{statistics['num_items']} items, {statistics['num_missing']} without a prediction"
    ]
    if statistics["status"] != "ready" or overall["status"] != "ready":
        fraction = min(statistics["progress"], overall["progress"])
        parts.append(f"Status: {statistics['status']} ({_js_round(fraction * 100)}%)")
    splits = list(statistics["splits"])
    rows: List[List[str]] = [["Metric", *splits]]
    for statistic in statistics["statistics"]:
        by_split = {v["split_name"]: v["value"] for v in statistic["values"]}
        name = statistic["metric_name"]
        rows.append([title(name), *(format_by_type(name, by_split.get(s)) for s in splits)])
    parts.append("Statistics\n" + _table(rows))

    entities = next((s["rows"] for s in overall["splits"] if s["split_name"] == split), [])
    noun = _KEY_TITLES.get(overall["primary_key"], overall["primary_key"])
    metrics = list(overall["metrics"])
    text = f"Overall performance per {noun.lower()} (split {split})\n"
    if not entities:
        text += "No rows."
    else:
        text += _table(
            [[noun, *map(title, metrics)]]
            + [
                [row["key"], *(format_by_type(m, row["values"].get(m)) for m in metrics)]
                for row in entities
            ]
        )
    parts.append(text)

    if subsets is not None:
        entries = list(subsets["performance_per_subset"].values())
        columns: List[str] = []
        for entry in entries:
            columns += [m for m in entry["performance_per_metric"] if m not in columns]
        text = f"Subset performance (split {split})\n"
        if not entries:
            text += "No subset performance entries found."
        else:
            text += _table(
                [["Subset", "Level", "Items", *map(title, columns)]]
                + [
                    [
                        entry["subset"]["name"],
                        entry["subset"]["data_level"],
                        f"{entry['num_items_used']}/{entry['num_items_total']}",
                        *(
                            format_by_type(m, entry["performance_per_metric"].get(m))
                            for m in columns
                        ),
                    ]
                    for entry in entries
                ]
            )
        if subsets["pending_subsets"]:
            text += f"\n{len(subsets['pending_subsets'])} subsets pending"
        parts.append(text)
    return "\n\n".join(parts) + "\n"


def _js_round(value: float) -> int:
    whole = math.floor(value)
    return whole + 1 if value - whole >= 0.5 else whole


# ---- reading, with polling


class ProgressLine:
    """``computing performance  42%`` on stderr: redrawn in place on a terminal, one line per
    change otherwise (``enabled=None`` draws only on a terminal); ``what`` names what is being
    computed (the comparison of two models draws ``computing comparison  42%``)."""

    def __init__(
        self,
        enabled: Optional[bool] = None,
        stream: Optional[TextIO] = None,
        what: str = "performance",
    ) -> None:
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty and isatty())
        self.enabled = self.tty if enabled is None else enabled
        self._last = ""

    def update(self, fraction: float, pending_subsets: int) -> None:
        if not self.enabled:
            return
        text = f"computing {self.what}  {math.floor(fraction * 100)}%"
        if pending_subsets:
            text += f", {pending_subsets} subsets pending"
        if text == self._last:
            return
        self._last = text
        self.stream.write(f"\r{text}   " if self.tty else f"{text}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.tty and self._last:
            self.stream.write("\n")
            self.stream.flush()
        self._last = ""


def read_performance(
    call: Callable[..., Any],
    path: str,
    *,
    subsets: bool = False,
    split: Optional[str] = None,
    wait: bool = True,
    timeout: float = PERFORMANCE_TIMEOUT_S,
    poll: float = PERFORMANCE_POLL_S,
    on_progress: Optional[Callable[[float, int], None]] = None,
) -> Dict[str, Any]:
    """``{statistics, overall[, subsets]}`` of the prediction set at ``path``
    (``/api/datasets/{id}/predictions/{set}``); see PredictionSet.performance."""
    deadline = time.monotonic() + timeout
    while True:
        answer: Dict[str, Any] = {
            "statistics": call("GET", f"{path}/performance/statistics"),
            "overall": call("GET", f"{path}/performance/overall"),
        }
        if subsets:
            answer["subsets"] = call(
                "GET", f"{path}/performance/subsets", query={"split": split or ALL_SPLITS}
            )
        if not wait:
            return answer
        for part in (answer["statistics"], answer["overall"]):
            if part["status"] == "failed":
                error = part.get("error")
                raise LoupeError(0, f"{FAILED_MESSAGE} {error}" if error else FAILED_MESSAGE)
        parts = (answer["statistics"], answer["overall"])
        pending = len(answer["subsets"]["pending_subsets"]) if subsets else 0
        if all(p["status"] != "computing" for p in parts) and not pending:
            return answer
        if on_progress is not None:
            fraction = min(p["progress"] if p["status"] == "computing" else 1 for p in parts)
            on_progress(fraction, pending)
        if time.monotonic() + poll > deadline:
            raise LoupeError(
                0,
                f"The performance is still being computed after {timeout:.0f} s: try again "
                "later, or wait longer.",
                retriable=True,
            )
        time.sleep(poll)
