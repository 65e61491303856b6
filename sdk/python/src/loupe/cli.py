"""The ``loupe`` command line (also ``python -m loupe``).

    loupe configure --url URL --api-key KEY [--license-key KEY]
    loupe datasets [--json]
    loupe import folder PATH --name NAME --task TASK [--exist-ok] [--splits NAME=FILE,…]
        [--predictions NAME=FILE]…
    loupe import coco PATH --name NAME --task object_detection|instance_segmentation
    loupe export --dataset NAME (--subset NAME | --items-file FILE --data-level LEVEL)
        --format coco|csv --out FOLDER [--predictions MODEL] [--name NAME]
    loupe performance --dataset ID|NAME --model ID|NAME [--split NAME] [--subsets] [--json]
        [--no-wait] [--timeout SECONDS]
    loupe compare --dataset ID|NAME --model-a ID|NAME --model-b ID|NAME [--metric ID]
        [--split NAME] [--value-name NAME] [--subsets] [--json] [--no-wait] [--timeout SECONDS]

Exit codes: 0 success, 2 bad input (arguments, files, configuration), 1 an error answered by the
server, a server that cannot be reached, or an export --out folder that is not empty. Messages
go to stderr.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
from typing import Dict, List, Optional, Sequence

from . import _config
from ._export import OutputNotEmpty
from ._http import LoupeConnectionError, LoupeError, LoupeInputError
from ._compare import COMPARISON_TIMEOUT_S, compare_text
from ._performance import ALL_SPLITS, PERFORMANCE_TIMEOUT_S, performance_text
from ._protocol import UPLOAD_BATCH_ROWS
from ._version import __version__
from .client import DATA_LEVELS, TASK_TYPES, Client

EXIT_OK = 0
EXIT_SERVER = 1
EXIT_INPUT = 2



def _add_computing_options(parser: argparse.ArgumentParser, timeout_s: float) -> None:
    """The options of a command that waits for a computation of the server."""
    parser.add_argument(
        "--subsets", action="store_true", help="also print the subsets enabled for performance"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the server's answers as one JSON object"
    )
    parser.add_argument(
        "--no-wait", action="store_true", help="answer at once, even while computing"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=timeout_s,
        metavar="SECONDS",
        help=f"give up waiting after this long (default {timeout_s:g})",
    )

def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="loupe",
        description="Upload datasets to Loupe and manage the connection to your instance.",
    )
    parser.add_argument("--version", action="version", version=f"loupe {__version__}")
    parser.add_argument("--url", help="the Loupe server (default: LOUPE_URL, then the config)")
    parser.add_argument("--api-key", help="your API key (default: LOUPE_API_KEY, then the config)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    configure = commands.add_parser(
        "configure",
        help="save the server URL and API key; optionally enter a license key",
        description=f"Checks the API key and saves it with the URL to {_config.config_path()} "
        "(readable by you only). With --license-key, submits the license when the instance is "
        "not licensed (admins only).",
    )
    configure.add_argument("--url", dest="configure_url", required=True, metavar="URL")
    configure.add_argument("--api-key", dest="configure_api_key", required=True, metavar="KEY")
    configure.add_argument("--license-key", metavar="KEY")

    datasets = commands.add_parser("datasets", help="list the datasets")
    datasets.add_argument("--json", action="store_true", help="print JSON instead of a table")

    imports = commands.add_parser("import", help="create a dataset from a folder")
    kinds = imports.add_subparsers(dest="layout", metavar="LAYOUT")
    kinds.required = True
    for layout, text in (
        ("folder", "a folder in the CSV layout (dataset.yaml + one CSV per split) or COCO layout"),
        ("coco", "a folder in the COCO layout (annotations/ + images/<split>/)"),
    ):
        sub = kinds.add_parser(layout, help=text, description=f"Imports {text}.")
        sub.add_argument("path", metavar="PATH")
        sub.add_argument("--name", required=True, help="the new dataset's name")
        tasks = (
            ("object_detection", "instance_segmentation") if layout == "coco" else TASK_TYPES
        )
        sub.add_argument("--task", required=True, choices=tasks, help="the task type")
        sub.add_argument("--description", default="")
        sub.add_argument(
            "--exist-ok",
            action="store_true",
            help="add to an existing dataset of that name (re-running an import resumes it)",
        )
        sub.add_argument("--batch-size", type=int, default=UPLOAD_BATCH_ROWS)
        sub.add_argument("--no-progress", action="store_true", help="draw no progress bar")
        if layout == "folder":
            sub.add_argument(
                "--splits",
                metavar="NAME=FILE,…",
                help="read only these CSVs as samples, each as the split named (overrides the "
                "splits of dataset.yaml); paths are relative to the folder",
            )
            sub.add_argument(
                "--predictions",
                action="append",
                metavar="NAME=FILE",
                help="after the samples, upload the prediction CSV FILE as the prediction set "
                "NAME (repeat for more); relative to the folder",
            )

    export = commands.add_parser(
        "export",
        help="download a subset or chosen items as a COCO or CSV folder",
        description="Downloads a subset (by name or id), or the items whose ids FILE lists (one "
        "per line, or a JSON array), as a folder in the COCO or CSV layout and unpacks it into "
        "FOLDER, which must be empty or new. `loupe import` reads it back (docs/formats.md, "
        "Exporting).",
    )
    export.add_argument("--dataset", required=True, help="the dataset's name or id")
    chosen = export.add_mutually_exclusive_group(required=True)
    chosen.add_argument("--subset", help="the subset's name or id")
    chosen.add_argument("--items-file", metavar="FILE", help="a file of item ids")
    levels = sorted({level for levels in DATA_LEVELS.values() for level in levels})
    export.add_argument(
        "--data-level", choices=levels, help="the level of the ids in --items-file"
    )
    export.add_argument("--format", required=True, choices=("coco", "csv"))
    export.add_argument("--out", required=True, metavar="FOLDER", help="an empty or new folder")
    export.add_argument("--predictions", metavar="MODEL", help="also export this prediction set")
    export.add_argument("--name", help="names the archive of --items-file (default 'selection')")

    performance = commands.add_parser(
        "performance",
        help="print a model's performance (statistics, per class, subsets)",
        description="Prints a model's performance as its page in the web app shows it: the "
        "statistics in every split, the performance per class (word, value name) in one split "
        "and, with --subsets, the subsets enabled for performance in that split. The server "
        "computes it in the background the first time it is asked for (and again after the "
        "data changes); the command waits for it, showing progress on stderr.",
    )
    performance.add_argument("--dataset", required=True, help="the dataset's name or id")
    performance.add_argument("--model", required=True, help="the model's name or id")
    performance.add_argument(
        "--split",
        default=ALL_SPLITS,
        help="the split of the per-class table and of --subsets (default 'all')",
    )
    _add_computing_options(performance, PERFORMANCE_TIMEOUT_S)

    compare = commands.add_parser(
        "compare",
        help="compare two models (overall, per class, per sample and object, subsets)",
        description="Prints model B compared with model A as the model comparison page in the "
        "web app shows it: which model is better on each comparison metric, the breakdown of the "
        "active metric per class (per word for speech recognition), and how many samples, "
        "ground-truth objects, predicted objects or masks each model is better on; with "
        "--subsets, both models on the subsets enabled for performance. The server computes it "
        "in the background the first time it is asked for (and again after the data changes); "
        "the command waits for it, showing progress on stderr.",
    )
    compare.add_argument("--dataset", required=True, help="the dataset's name or id")
    compare.add_argument("--model-a", required=True, help="model A's name or id")
    compare.add_argument("--model-b", required=True, help="model B's name or id")
    compare.add_argument(
        "--metric",
        metavar="ID",
        help="the active comparison metric, e.g. macro_f1_score (default: the task's first)",
    )
    compare.add_argument(
        "--split", default=ALL_SPLITS, help="the split compared (default 'all')"
    )
    compare.add_argument(
        "--value-name",
        metavar="NAME",
        help="regression: the value compared (default: every value name, averaged)",
    )
    _add_computing_options(compare, COMPARISON_TIMEOUT_S)
    return parser


def _named_files(pairs: Sequence[str], option: str) -> Dict[str, str]:
    """``NAME=FILE`` pairs; each name once."""
    out: Dict[str, str] = {}
    for pair in pairs:
        name, equals, file = (part.strip() for part in pair.partition("="))
        if not equals or not name or not file:
            raise LoupeInputError(f"--{option} takes NAME=FILE, got {pair!r}.")
        if name in out:
            raise LoupeInputError(f"--{option} names {name!r} twice.")
        out[name] = file
    return out


def _client(args: argparse.Namespace) -> Client:
    return Client(args.url, args.api_key)


def _date(seconds: float) -> str:
    return _dt.datetime.fromtimestamp(seconds, _dt.timezone.utc).strftime("%Y-%m-%d")


def _configure(args: argparse.Namespace) -> int:
    client = Client(args.configure_url, args.configure_api_key, retries=2, backoff=0.5)
    state = client.state()
    user = state.get("user") or {}
    path = _config.write_config(client.url, args.configure_api_key)
    print(f"Saved {client.url} and your API key to {path}.")
    who = user.get("name") or user.get("email") or "unknown user"
    print(f"You are {who} <{user.get('email', '?')}> ({user.get('role', '?')}) at "
          f"{user.get('company_name') or 'this instance'}.")
    if args.license_key:
        action, license = client.set_license(args.license_key)
        until = _date(license.get("expiration_ts") or 0)
        company = license.get("company_name") or "?"
        if action == "unchanged":
            print(f"The instance is already licensed ({company}, until {until}): the license "
                  "key was not submitted.")
        elif action == "submitted":
            print(f"License submitted: licensed to {company} until {until}.")
        else:
            print(f"The expired license was replaced: licensed to {company} until {until}.")
    return EXIT_OK


def _datasets(args: argparse.Namespace) -> int:
    datasets = _client(args).datasets()
    if args.json:
        print(json.dumps([d.data for d in datasets], indent=2))
        return EXIT_OK
    if not datasets:
        print("No datasets yet. Create one with `loupe import folder PATH --name NAME --task TASK`.")
        return EXIT_OK
    rows = [("NAME", "TASK", "SAMPLES", "ID")] + [
        (d.name, d.task_type, f"{d.samples_count:,}", d.id) for d in datasets
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:3])) + "  " + row[3])
    return EXIT_OK


def _import(args: argparse.Namespace) -> int:
    splits = getattr(args, "splits", None)
    predictions = getattr(args, "predictions", None)
    named_splits = _named_files(splits.split(","), "splits") if splits else None
    named_predictions = _named_files(predictions, "predictions") if predictions else None
    client = _client(args)
    try:
        dataset = client.import_folder(
            args.path,
            args.name,
            args.task,
            exist_ok=args.exist_ok,
            layout="coco" if args.layout == "coco" else None,
            description=args.description,
            batch_size=args.batch_size,
            progress=False if args.no_progress else None,
            splits=named_splits,
            predictions=named_predictions,
        )
    except LoupeError as error:
        if error.status == 409 and not args.exist_ok:
            raise LoupeError(
                409,
                f"{error.description} Add --exist-ok to import into it (running an import "
                "again resumes it: samples already there are left unchanged).",
            ) from None
        raise
    splits = ", ".join(dataset.data.get("splits") or []) or "none"
    done = dataset.upload_result
    print(
        f"Imported into {dataset.name!r}: {done['created']:,} created, {done['updated']:,} "
        f"updated, {done['unchanged']:,} unchanged. It has {dataset.samples_count:,} samples "
        f"({dataset.task_type}; splits: {splits}; id {dataset.id})."
    )
    for prediction_set in dataset.imported_prediction_sets:
        done = prediction_set.upload_result
        print(
            f"Prediction set {prediction_set.name!r}: {done['created']:,} created, "
            f"{done['updated']:,} updated, {done['unchanged']:,} unchanged."
        )
    print(f"Open it at {client.url}/datasets/{dataset.id}")
    return EXIT_OK


def _item_ids(path: str) -> List[str]:
    try:
        text = open(path, encoding="utf-8-sig").read()
    except OSError as error:
        reason = error.strerror or error
        raise LoupeInputError(f"{path}: cannot read the file ({reason}).") from None
    if text.strip().startswith("["):
        try:
            ids = json.loads(text)
        except ValueError as error:
            raise LoupeInputError(f"{path}: not a valid JSON array ({error}).") from None
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise LoupeInputError(f"{path}: the JSON array must hold item ids (strings).")
        return ids
    return [line.strip() for line in text.splitlines() if line.strip()]


def _export(args: argparse.Namespace) -> int:
    if args.items_file is not None and not args.data_level:
        raise LoupeInputError("--items-file needs --data-level (image, image_object or audio).")
    ids = _item_ids(args.items_file) if args.items_file is not None else []
    if args.items_file is not None and not ids:
        raise LoupeInputError(f"{args.items_file}: no item ids.")
    client = _client(args)
    try:
        if args.subset is not None:
            done = client.export_subset(
                args.dataset, args.subset, args.format, args.out, predictions=args.predictions
            )
        else:
            done = client.export_items(
                args.dataset,
                ids,
                args.data_level,
                args.format,
                args.out,
                name=args.name,
                predictions=args.predictions,
            )
    except OutputNotEmpty:
        _error(f"--out {args.out} is not empty: export into an empty or new folder.")
        return EXIT_SERVER
    print(
        f"Exported {done['filename']} into {done['out']}: {done['files']:,} files, "
        f"{done['bytes']:,} bytes."
    )
    return EXIT_OK


def _performance(args: argparse.Namespace) -> int:
    if not args.timeout > 0:
        raise LoupeInputError("--timeout must be a positive number of seconds.")
    client = _client(args)
    dataset = client.get_dataset(args.dataset)
    splits = [ALL_SPLITS] + [s for s in dataset.data.get("splits") or [] if s != ALL_SPLITS]
    if args.split not in splits:
        raise LoupeInputError(
            f"--split {args.split}: dataset '{dataset.name}' has the splits {', '.join(splits)}."
        )
    model = dataset.prediction_set(args.model)
    done = model.performance(
        args.split,
        wait=not args.no_wait,
        timeout=args.timeout,
        subsets=args.subsets,
        progress=True,  # on stderr, so also with --json
    )
    if args.json:
        print(
            json.dumps(
                {
                    "dataset": {
                        "id": dataset.id,
                        "name": dataset.name,
                        "task_type": dataset.task_type,
                    },
                    "model": {"id": model.id, "name": model.name},
                    "split": args.split,
                    **done,
                },
                indent=2,
            )
        )
    else:
        text = performance_text(dataset.name, model.name, dataset.task_type, done, args.split)
        sys.stdout.write(text)
    return EXIT_OK


def _compare(args: argparse.Namespace) -> int:
    if not args.timeout > 0:
        raise LoupeInputError("--timeout must be a positive number of seconds.")
    client = _client(args)
    dataset = client.get_dataset(args.dataset)
    splits = [ALL_SPLITS] + [s for s in dataset.data.get("splits") or [] if s != ALL_SPLITS]
    if args.split not in splits:
        raise LoupeInputError(
            f"--split {args.split}: dataset '{dataset.name}' has the splits {', '.join(splits)}."
        )
    model_a = dataset.prediction_set(args.model_a)
    model_b = dataset.prediction_set(args.model_b)
    done = model_a.compare(
        model_b,
        args.metric,
        args.split,
        args.value_name,
        wait=not args.no_wait,
        timeout=args.timeout,
        subsets=args.subsets,
        progress=True,  # on stderr, so also with --json
    )
    if args.json:
        print(
            json.dumps(
                {
                    "dataset": {
                        "id": dataset.id,
                        "name": dataset.name,
                        "task_type": dataset.task_type,
                    },
                    "model_a": {"id": model_a.id, "name": model_a.name},
                    "model_b": {"id": model_b.id, "name": model_b.name},
                    **done,
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        sys.stdout.write(compare_text(dataset.name, model_a.name, model_b.name, done))
    return EXIT_OK


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; answers the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exit_:  # argparse prints its own message; bad arguments exit 2
        return int(exit_.code or 0)
    handlers = {
        "configure": _configure,
        "datasets": _datasets,
        "import": _import,
        "export": _export,
        "performance": _performance,
        "compare": _compare,
    }
    try:
        return handlers[args.command](args)
    except LoupeInputError as error:
        _error(str(error))
        return EXIT_INPUT
    except LoupeConnectionError as error:
        _error(str(error))
        return EXIT_SERVER
    except LoupeError as error:
        _error(str(error))
        return EXIT_SERVER
    except KeyboardInterrupt:
        _error("Interrupted. Uploads are idempotent: run the same command with --exist-ok to "
               "continue where it stopped.")
        return 130


def _error(message: str) -> None:
    lines: List[str] = message.splitlines() or [""]
    print(f"loupe: error: {lines[0]}", file=sys.stderr)
    for line in lines[1:]:
        print(line, file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
