"""Two models compared as the model comparison page shows it (docs/sdk-python.md in the Loupe
repository, "Comparing two models"): which model wins each comparison metric, the active metric's
breakdown per class or word, the per-sample, per-mask and per-object sections with their category
(and subcategory) counts, and optionally the subsets enabled for performance. The server computes
the comparison in a job that asking for it starts, so a caller that waits asks again every second
until it is ready.

The category labels, the subcategory lists and the page's texts are those of
``packages/contracts/src/comparison.ts``, and ``loupe compare`` prints what the TypeScript CLI
prints; a test of this package compares the two files.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from ._http import LoupeError
from ._performance import ALL_SPLITS, _fixed, _js_round, format_by_type, format_metric_value
from ._performance import metric_title

#: Seconds between polls while the comparison is being computed.
COMPARISON_POLL_S = 1.0
#: Seconds a caller waits for the comparison by default.
COMPARISON_TIMEOUT_S = 600.0
#: How many entities of each category the per-class (per-word) table lists, as the page does.
ENTITIES_SHOWN = 5

#: The four categories in the page's sort order (COMPARISON_CATEGORIES).
CATEGORIES = ("model_a_is_better", "both_are_problematic", "both_are_neutral", "model_b_is_better")
#: Tasks whose breakdowns never call both models problematic (THREE_SEGMENT_TASKS).
THREE_SEGMENT_TASKS = ("regression", "automatic_speech_recognition")

_CORRECT_LABELS = {
    "model_a_is_better": "Model A is better",
    "model_b_is_better": "Model B is better",
    "both_are_neutral": "Both are correct",
    "both_are_problematic": "Both are incorrect",
}
_EQUAL_LABELS = {
    "model_a_is_better": "Model A is better",
    "model_b_is_better": "Model B is better",
    "both_are_neutral": "Both are equal",
    "both_are_problematic": "Both are zero",
}
#: Category labels per task (COMPARISON_CATEGORY_LABELS).
CATEGORY_LABELS: Dict[str, Dict[str, str]] = {
    "classification": _CORRECT_LABELS,
    "audio_classification": _CORRECT_LABELS,
    "object_detection": _CORRECT_LABELS,
    "instance_segmentation": _CORRECT_LABELS,
    "regression": _EQUAL_LABELS,
    "semantic_segmentation": _EQUAL_LABELS,
    "automatic_speech_recognition": _EQUAL_LABELS,
}

#: Subcategories of ground-truth objects and of predicted objects, in order
#: (GROUND_TRUTH_SUBCATEGORIES, PREDICTION_SUBCATEGORIES).
GROUND_TRUTH_SUBCATEGORIES = ("tp_a_fn_b", "fn_a_tp_b", "fn_a_fn_b", "tp_a_tp_b")
PREDICTION_SUBCATEGORIES = (
    "tp_a_tp_b",
    "tp_a_fp_b",
    "fp_a_tp_b",
    "fp_a_fp_b",
    "tp_a_unmatched_b",
    "unmatched_a_tp_b",
    "unmatched_a_fp_b",
    "fp_a_unmatched_b",
)

#: Texts of COMPARISON_MESSAGES.
FAILED_MESSAGE = "Computing the comparison failed."
PER_CLASS_DISABLED_TITLE = "Per class breakdown"
ACCURACY_DISABLED = 'Per-class breakdown is not available for "Accuracy"'
ACCURACY_DISABLED_HINT = "It's available for all other metrics"

_SECTION_TITLES = {
    "sample": "Per sample breakdown",
    "mask": "Per ground-truth mask breakdown",
    "ground_truth_object": "Ground-truth objects",
    "predicted_object": "Predicted objects",
}
_UNIT_NOUNS = {
    "sample": "samples",
    "mask": "masks",
    "ground_truth_object": "objects",
    "predicted_object": "objects",
}
_BETTER = {"model_a_is_better": "Model A", "model_b_is_better": "Model B"}
_MISSING = "–"


def segments(task: str) -> List[str]:
    """The categories a task's breakdowns show, in sort order (comparisonSegments)."""
    if task in THREE_SEGMENT_TASKS:
        return [c for c in CATEGORIES if c != "both_are_problematic"]
    return list(CATEGORIES)


# ---- formatting, as compareText of packages/sdk/src/cli/compare.ts


def _table(rows: Sequence[Sequence[str]], left: int = 1) -> str:
    """Columns separated by two spaces, the first ``left`` left-aligned (names, labels), the
    others right-aligned (numbers)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(widths[i]) if i < left else cell.rjust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in rows
    )


def _percentage(fraction: float) -> str:
    return f"{_fixed(fraction * 100, 2)}%"


def _finite(value: Optional[float]) -> bool:
    return value is not None and math.isfinite(value)


def _signed(metric_id: str, delta: Optional[float]) -> str:
    """A difference B − A in the metric's format, signed ('+' when B is higher)."""
    if delta is None or not _finite(delta):
        return _MISSING
    text = format_by_type(metric_id, abs(delta))
    if delta > 0:
        return f"+{text}"
    if delta < 0:
        return f"-{text}"
    return format_by_type(metric_id, 0)


def _relative(percent: Optional[float]) -> str:
    """The relative delta, already a percentage of |A|, signed with 2 decimals."""
    if percent is None or not _finite(percent):
        return _MISSING
    text = f"{_fixed(abs(percent), 2)}%"
    return f"+{text}" if percent > 0 else f"-{text}" if percent < 0 else text


def _breakdown_text(task: str, breakdown: Mapping[str, Any]) -> str:
    labels = CATEGORY_LABELS[task]
    shown = segments(task)
    entity = breakdown["entity"]
    metric = breakdown["metric"]
    noun, plural = ("Class", "Classes") if entity == "class" else ("Word", "Words")
    rows: List[List[str]] = [[noun, "Category", "Model A", "Model B", "Delta"]]
    hidden = 0
    for category in shown:
        entities = breakdown[category]
        hidden += max(0, len(entities) - ENTITIES_SHOWN)
        for e in entities[:ENTITIES_SHOWN]:
            rows.append(
                [
                    e["entity"],
                    labels[category],
                    format_by_type(metric, e["model_a"]),
                    format_by_type(metric, e["model_b"]),
                    _signed(metric, e["raw_delta"]),
                ]
            )
    a_better = len(breakdown["model_a_is_better"])
    b_better = len(breakdown["model_b_is_better"])
    text = (
        f"Per {entity} breakdown ({metric_title(metric, task)})\n"
        f"Model A is better on {a_better} items, Model B is better on {b_better} items\n"
        + _table([["Category", plural]] + [[labels[c], str(len(breakdown[c]))] for c in shown])
    )
    if len(rows) > 1:
        text += "\n\n" + _table(rows, 2)
    if hidden:
        word = entity if hidden == 1 else plural.lower()
        text += f"\n{hidden} more {word} not shown (--json lists them all)"
    return text


def _section_text(task: str, section: Mapping[str, Any]) -> str:
    labels = CATEGORY_LABELS[task]
    unit = section["unit"]
    lines = [
        f"{_SECTION_TITLES[unit]} ({section['num_items']} {_UNIT_NOUNS[unit]})\n"
        + _table(
            [["Category", "Items", "Share"]]
            + [
                [
                    labels[c],
                    str(section[c]["num_items"]),
                    _percentage(section[c]["fraction_of_total_items"]),
                ]
                for c in segments(task)
            ]
        )
    ]
    order = PREDICTION_SUBCATEGORIES if unit == "predicted_object" else GROUND_TRUTH_SUBCATEGORIES
    present = [s for s in order if (section.get("subcategories") or {}).get(s)]
    if present:
        lines.append(
            _table(
                [["Subcategory", "Category", "Items", "Share"]]
                + [
                    [
                        s,
                        labels[section["subcategories"][s]["category"]],
                        str(section["subcategories"][s]["num_items"]),
                        _percentage(section["subcategories"][s]["fraction_of_total_items"]),
                    ]
                    for s in present
                ],
                2,
            )
        )
    distribution = section["distribution"]
    mean, std = distribution.get("mean"), distribution.get("std")
    lines.append(
        f"{distribution['x_label']}: "
        f"mean {format_metric_value(math.nan if mean is None else mean)}, "
        f"std {format_metric_value(math.nan if std is None else std)}"
    )
    return "\n\n".join(lines)


def compare_text(dataset: str, model_a: str, model_b: str, comparison: Mapping[str, Any]) -> str:
    """The tables ``loupe compare`` prints (the same text as the TypeScript CLI)."""
    task = comparison["task"]

    def title(metric_id: str) -> str:
        return metric_title(metric_id, task)

    context = [f"Split {comparison['split']}", f"metric {title(comparison['metric'])}"]
    if comparison.get("regression_value_name") is not None:
        context.append(f"value name {comparison['regression_value_name']}")
    if comparison.get("iou_threshold") is not None:
        context.append(f"IoU {_js_number(comparison['iou_threshold'])}")
    parts: List[str] = [
        f"Comparison of model A '{model_a}' and model B '{model_b}' on dataset '{dataset}' "
        f"({task})\n" + ", ".join(context)
    ]
    if comparison["status"] != "ready":
        parts.append(
            f"Status: {comparison['status']} ({_js_round(comparison['progress'] * 100)}%)"
        )
    overall = list(comparison["overall"].items())
    if not overall:
        parts.append("Overall\nNo metrics.")
    else:
        parts.append(
            "Overall\n"
            + _table(
                [["Metric", "Model A", "Model B", "Delta", "Relative", "Better"]]
                + [
                    [
                        title(metric),
                        format_by_type(metric, d["model_a"]),
                        format_by_type(metric, d["model_b"]),
                        _signed(metric, d["raw_delta"]),
                        _relative(d["relative_delta"]),
                        _BETTER.get(d.get("better") or "", _MISSING),
                    ]
                    for metric, d in overall
                ]
            )
        )
    if comparison.get("per_class_unavailable"):
        parts.append(f"{PER_CLASS_DISABLED_TITLE}\n{ACCURACY_DISABLED}\n{ACCURACY_DISABLED_HINT}")
    for key in ("per_class", "per_word"):
        if comparison.get(key):
            parts.append(_breakdown_text(task, comparison[key]))
    for key in ("per_sample", "per_object_gt", "per_object_pred"):
        if comparison.get(key):
            parts.append(_section_text(task, comparison[key]))
    subsets = comparison.get("subsets")
    if subsets is not None:
        labels = CATEGORY_LABELS[task]
        entries = list(subsets["comparison_per_subset"].values())
        text = f"Subset performance in comparison (split {comparison['split']})\n"
        if not entries:
            text += "No subset performance entries found."
        else:
            rows = [
                ["Subset", "Level", "Metric", "Category", "Items", "Model A", "Model B", "Delta"]
            ]
            for entry in entries:
                metric = entry["metric_name"]
                d = entry["comparison_per_metric"].get(metric) or {}
                rows.append(
                    [
                        entry["subset"]["name"],
                        entry["subset"]["data_level"],
                        title(metric),
                        labels[d["category"]] if d.get("category") else _MISSING,
                        f"{entry['num_items_used']}/{entry['num_items_total']}",
                        format_by_type(metric, d.get("model_a")),
                        format_by_type(metric, d.get("model_b")),
                        _signed(metric, d.get("raw_delta")),
                    ]
                )
            text += _table(rows, 4)
        if subsets["pending_subsets"]:
            text += f"\n{len(subsets['pending_subsets'])} subsets pending"
        parts.append(text)
    return "\n\n".join(parts) + "\n"


def _js_number(value: float) -> str:
    """A number as JavaScript's String() writes it for the IoU thresholds used (0.5, 0.75, 1)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


# ---- reading, with polling


def read_comparison(
    call: Callable[..., Any],
    dataset_id: str,
    predictions_id_a: str,
    predictions_id_b: str,
    *,
    metric: Optional[str] = None,
    split: Optional[str] = None,
    regression_value_name: Optional[str] = None,
    subsets: bool = False,
    wait: bool = True,
    timeout: float = COMPARISON_TIMEOUT_S,
    poll: float = COMPARISON_POLL_S,
    on_progress: Optional[Callable[[float, int], None]] = None,
) -> Dict[str, Any]:
    """The comparison of B with A (the server's ComparisonResponse), with ``subsets`` also
    ``"subsets"``; see Client.compare."""
    split = split or ALL_SPLITS
    body: Dict[str, Any] = {
        "predictions_id_a": predictions_id_a,
        "predictions_id_b": predictions_id_b,
        "split": split,
    }
    if metric is not None:
        body["metric"] = metric
    if regression_value_name is not None:
        body["regression_value_name"] = regression_value_name
    path = f"/api/datasets/{dataset_id}/comparison"
    deadline = time.monotonic() + timeout
    while True:
        # Each ask of the comparison (re)starts its job when it is missing or stale, so polling
        # repeats the POST rather than reading a job's status.
        answer: Dict[str, Any] = dict(call("POST", path, json_body=body))
        if subsets:
            answer["subsets"] = call(
                "GET",
                f"{path}/subsets",
                query={
                    "predictions_id_a": predictions_id_a,
                    "predictions_id_b": predictions_id_b,
                    "split": split,
                },
            )
        if not wait:
            return answer
        if answer["status"] == "failed":
            error = answer.get("error")
            raise LoupeError(0, f"{FAILED_MESSAGE} {error}" if error else FAILED_MESSAGE)
        pending = len(answer["subsets"]["pending_subsets"]) if subsets else 0
        if answer["status"] != "computing" and not pending:
            return answer
        if on_progress is not None:
            on_progress(answer["progress"] if answer["status"] == "computing" else 1, pending)
        if time.monotonic() + poll > deadline:
            raise LoupeError(
                0,
                f"The comparison is still being computed after {timeout:.0f} s: try again "
                "later, or wait longer.",
                retriable=True,
            )
        time.sleep(poll)
