"""A model's performance: PredictionSet.performance and `loupe performance` print the numbers
the performance page shows. Formatting and polling without a server; the numbers against the
live server on a small dataset whose metrics are worked out by hand below."""

from __future__ import annotations

import json
import re
import unittest
from pathlib import Path
from typing import Any, Dict, List

from _support import ServerTest, loupe, png
from loupe import _performance
from loupe._performance import format_by_type, performance_text, read_performance
from test_cli import run

REPOSITORY = Path(__file__).resolve().parents[3]
CATALOGUE_TS = REPOSITORY / "packages/metrics/src/catalogue.ts"


@unittest.skipUnless(CATALOGUE_TS.exists(), "run from the Loupe repository (packages/metrics)")
class CatalogueTest(unittest.TestCase):
    def test_titles_and_types_match_the_metrics_catalogue(self) -> None:
        text = CATALOGUE_TS.read_text("utf-8")
        # `  m('accuracy', 'Accuracy', 'percentage', 'higher'),`
        theirs = {
            metric: (title, kind)
            for metric, title, kind in re.findall(r"^  m\('(\w+)', '([^']*)', '(\w+)',", text, re.M)
        }
        self.assertGreater(len(theirs), 30)  # the file was read
        self.assertEqual(dict(_performance.METRICS), theirs)

    def test_task_titles_match_the_metrics_catalogue(self) -> None:
        text = CATALOGUE_TS.read_text("utf-8")
        # `  classification: { count: 'Ground-truth annotations' },` inside METRIC_TITLE_OVERRIDES
        block = re.search(r"^export const METRIC_TITLE_OVERRIDES\b.*?^};", text, re.M | re.S)
        self.assertIsNotNone(block)
        theirs: Dict[str, Dict[str, str]] = {}
        for task, entries in re.findall(r"^  (\w+): \{(.*)\},$", block.group(0), re.M):
            theirs[task] = dict(re.findall(r"(\w+): '([^']*)'", entries))
        self.assertGreater(len(theirs), 0)  # the table was read
        self.assertEqual(_performance.METRIC_TITLE_OVERRIDES, theirs)
        self.assertEqual(
            _performance.metric_title("count", "classification"), "Ground-truth annotations"
        )
        self.assertEqual(_performance.metric_title("count", "regression"), "Count")
        self.assertEqual(_performance.metric_title("count"), "Count")


class FormatTest(unittest.TestCase):
    def test_percentages_have_two_decimals(self) -> None:
        self.assertEqual(format_by_type("accuracy", 0.5), "50.00%")
        self.assertEqual(format_by_type("accuracy", 2 / 3), "66.67%")
        self.assertEqual(format_by_type("f1_score", 4 / 7), "57.14%")
        self.assertEqual(format_by_type("recall", 1), "100.00%")
        self.assertEqual(format_by_type("recall", 0), "0.00%")
        # JavaScript's toFixed: the exact binary value, a tie away from zero
        self.assertEqual(format_by_type("precision", 0.000125), "0.01%")
        self.assertEqual(format_by_type("precision", -0.0), "0.00%")

    def test_ints_are_whole_and_floats_up_to_three_decimals(self) -> None:
        self.assertEqual(format_by_type("count", 3), "3")
        self.assertEqual(format_by_type("tp", 2.5), "3")  # Math.round
        self.assertEqual(format_by_type("fp", -2.5), "-2")
        self.assertEqual(format_by_type("mean_squared_error", 0.25), "0.25")
        self.assertEqual(format_by_type("mean_squared_error", 1 / 3), "0.333")
        self.assertEqual(format_by_type("mean_absolute_error", 0.0004), "<0.001")
        self.assertEqual(format_by_type("mean_absolute_error", 0), "0")
        self.assertEqual(format_by_type("mean_absolute_error", 12345.67), "12345.7")
        self.assertEqual(format_by_type("unknown_metric", 2.0), "2")

    def test_undefined_values_show_a_dash(self) -> None:
        for metric in ("accuracy", "count", "mean_squared_error"):
            self.assertEqual(format_by_type(metric, None), "–")


#: The same answer and text as performanceText's test in packages/sdk (performance.test.ts).
FIXTURE: Dict[str, Any] = {
    "statistics": {
        "status": "ready", "progress": 1, "data_version": 1,
        "splits": ["all", "train"], "num_items": 6, "num_missing": 1,
        "statistics": [
            {"metric_name": "accuracy", "values": [
                {"split_name": "all", "value": 0.5}, {"split_name": "train", "value": 2 / 3}]},
            {"metric_name": "count", "values": [
                {"split_name": "all", "value": 6}, {"split_name": "train", "value": 3}]},
            {"metric_name": "equal_error_rate", "values": [
                {"split_name": "all", "value": None}, {"split_name": "train", "value": 0.25}]},
        ],
    },
    "overall": {
        "status": "ready", "progress": 1, "data_version": 1,
        "primary_key": "class", "metrics": ["f1_score", "count"],
        "splits": [
            {"split_name": "all", "rows": [
                {"key": "cat", "values": {"f1_score": 0.5, "count": 3}},
                {"key": "dog", "values": {"f1_score": 4 / 7, "count": 3}},
            ]},
            {"split_name": "train", "rows": []},
        ],
    },
    "subsets": {
        "performance_per_subset": {
            "s1": {
                "performance_per_metric": {"accuracy": 1 / 3, "macro_f1_score": None},
                "num_items_used": 3, "num_items_total": 3, "metric_name": "accuracy",
                "subset": {"id": "s1", "name": "Cats", "data_level": "image"},
            },
        },
        "pending_subsets": [],
    },
}

FIXTURE_TEXT = """Performance of model 'resnet' on dataset 'pets' (classification)
6 items, 1 without a prediction

Statistics
Metric                       all   train
Accuracy                  50.00%  66.67%
Ground-truth annotations       6       3
EER                            –  25.00%

Overall performance per class (split all)
Class      F1  Ground-truth annotations
cat    50.00%                         3
dog    57.14%                         3

Subset performance (split all)
Subset  Level  Items  Accuracy  Macro F1
Cats    image    3/3    33.33%         –
"""


class TextTest(unittest.TestCase):
    def test_the_tables(self) -> None:
        text = performance_text("pets", "resnet", "classification", FIXTURE, "all")
        self.assertEqual(text, FIXTURE_TEXT)

    def test_a_split_without_rows(self) -> None:
        without_subsets = {k: v for k, v in FIXTURE.items() if k != "subsets"}
        text = performance_text("pets", "resnet", "classification", without_subsets, "train")
        self.assertTrue(text.endswith("Overall performance per class (split train)\nNo rows.\n"))


class PollingTest(unittest.TestCase):
    """read_performance against answers given in turn (one state per poll)."""

    def server(self, states: List[Dict[str, Any]]):
        calls: List[str] = []

        def call(method: str, path: str, query: Any = None) -> Any:
            if path.endswith("/statistics"):
                calls.append("poll")
            state = states[min(calls.count("poll"), len(states)) - 1]
            part = path.rsplit("/", 1)[-1]
            if part == "subsets":
                calls.append(f"subsets?split={query['split']}")
                pending = ["x"] * state.get("pending", 0)
                return {"performance_per_subset": {}, "pending_subsets": pending}
            answer = dict(FIXTURE[part], status=state["status"], progress=state["progress"])
            if state["status"] == "failed":
                answer["error"] = "out of memory"
            return answer

        return call, calls

    def test_polls_while_computing_and_reports_progress(self) -> None:
        call, calls = self.server(
            [{"status": "computing", "progress": 0}, {"status": "computing", "progress": 0.4},
             {"status": "ready", "progress": 1}]
        )
        seen: List[Any] = []
        answer = read_performance(call, "/p", poll=0.001, on_progress=lambda *a: seen.append(a))
        self.assertEqual(set(answer), {"statistics", "overall"})
        self.assertEqual(seen, [(0, 0), (0.4, 0)])
        self.assertEqual(calls.count("poll"), 3)

    def test_waits_for_pending_subsets_of_the_split(self) -> None:
        call, calls = self.server(
            [{"status": "ready", "progress": 1, "pending": 2}, {"status": "ready", "progress": 1}]
        )
        seen: List[Any] = []
        answer = read_performance(
            call, "/p", subsets=True, split="train", poll=0.001,
            on_progress=lambda *a: seen.append(a),
        )
        self.assertEqual(answer["subsets"]["pending_subsets"], [])
        self.assertEqual(seen, [(1, 2)])
        self.assertIn("subsets?split=train", calls)

    def test_a_failed_computation_raises_its_reason(self) -> None:
        call, _ = self.server([{"status": "failed", "progress": 0.2}])
        with self.assertRaises(loupe.LoupeError) as raised:
            read_performance(call, "/p", poll=0.001)
        self.assertEqual(raised.exception.description,
                         "Computing the performance failed. out of memory")
        self.assertFalse(raised.exception.retriable)

    def test_gives_up_after_the_timeout(self) -> None:
        call, _ = self.server([{"status": "computing", "progress": 0.1}])
        with self.assertRaises(loupe.LoupeError) as raised:
            read_performance(call, "/p", poll=0.005, timeout=0.02)
        self.assertTrue(raised.exception.retriable)
        self.assertIn("still being computed", raised.exception.description)

    def test_no_wait_answers_at_once(self) -> None:
        call, calls = self.server([{"status": "computing", "progress": 0.3}])
        answer = read_performance(call, "/p", wait=False)
        self.assertEqual(answer["statistics"]["status"], "computing")
        self.assertEqual(calls, ["poll"])


# ---- against the server
#
# Six images, classes cat and dog; the model predicts, per split:
#   train: a cat→cat, b cat→dog, c dog→dog
#   test:  d dog→dog, e cat→dog, f dog→(no prediction: counts as wrong)
# accuracy: all 3/6, train 2/3, test 1/3.
# all, cat: truth {a,b,e}, predicted cat {a}: precision 1, recall 1/3, F1 1/2.
# all, dog: truth {c,d,f}, predicted dog {b,c,d,e}: precision 2/4, recall 2/3, F1 4/7.
# train, cat: precision 1, recall 1/2, F1 2/3; train, dog: precision 1/2, recall 1, F1 2/3.
# macro F1: all (1/2 + 4/7)/2 = 15/28, train 2/3.
SAMPLES = [
    ("a", "train", "cat", "cat"),
    ("b", "train", "cat", "dog"),
    ("c", "train", "dog", "dog"),
    ("d", "test", "dog", "dog"),
    ("e", "test", "cat", "dog"),
    ("f", "test", "dog", None),
]


def value_of(statistics: Dict[str, Any], metric: str, split: str) -> Any:
    found = next(s for s in statistics["statistics"] if s["metric_name"] == metric)
    return next(v["value"] for v in found["values"] if v["split_name"] == split)


class PerformanceServerTest(ServerTest):
    def setUp(self) -> None:
        super().setUp()
        self.ds = self.dataset("perf", "classification", class_names=["cat", "dog"])
        self.ds.upload_samples(
            {"id": f"{i}.png", "image": png(2, 2, (n * 20, 0, 0)), "split": split, "label": label}
            for n, (i, split, label, _) in enumerate(SAMPLES)
        )
        self.model = self.ds.upload_predictions(
            "resnet",
            [
                {"id": f"{i}.png", "label": predicted, "score": 0.9}
                for i, _, _, predicted in SAMPLES
                if predicted
            ],
        )

    def test_statistics_and_overall_are_the_numbers_worked_out_by_hand(self) -> None:
        done = self.model.performance(timeout=120)
        statistics, overall = done["statistics"], done["overall"]
        self.assertEqual(statistics["status"], "ready")
        self.assertEqual(statistics["splits"][0], "all")
        self.assertEqual(sorted(statistics["splits"][1:]), ["test", "train"])
        self.assertEqual((statistics["num_items"], statistics["num_missing"]), (6, 1))
        for split, accuracy in (("all", 3 / 6), ("train", 2 / 3), ("test", 1 / 3)):
            self.assertAlmostEqual(value_of(statistics, "accuracy", split), accuracy)
        self.assertAlmostEqual(value_of(statistics, "macro_f1_score", "all"), 15 / 28)
        self.assertAlmostEqual(value_of(statistics, "macro_f1_score", "train"), 2 / 3)

        self.assertEqual(overall["primary_key"], "class")
        rows = {
            s["split_name"]: {r["key"]: r["values"] for r in s["rows"]} for s in overall["splits"]
        }
        for key, expected in {
            "cat": {"precision": 1, "recall": 1 / 3, "f1_score": 1 / 2, "count": 3},
            "dog": {"precision": 2 / 4, "recall": 2 / 3, "f1_score": 4 / 7, "count": 3},
        }.items():
            for metric, number in expected.items():
                self.assertAlmostEqual(rows["all"][key][metric], number, msg=f"{key} {metric}")
        self.assertAlmostEqual(rows["train"]["cat"]["f1_score"], 2 / 3)
        self.assertAlmostEqual(rows["train"]["dog"]["recall"], 1)

    def test_without_wait_the_answer_says_its_status(self) -> None:
        done = self.model.performance(wait=False)
        self.assertIn(done["statistics"]["status"], ("computing", "ready"))
        self.assertIn(done["overall"]["status"], ("computing", "ready"))
        self.assertEqual(self.model.performance()["statistics"]["status"], "ready")

    def test_subsets_enabled_for_performance(self) -> None:
        self.client.request(
            "POST",
            f"/api/datasets/{self.ds.id}/subsets",
            json_body={
                "name": "Cats",
                "data_level": "image",
                "item_ids": ["a.png", "b.png", "e.png"],
                "enabled_for_performance": True,
            },
        )
        done = self.model.performance(subsets=True, timeout=120)
        entries = list(done["subsets"]["performance_per_subset"].values())
        self.assertEqual([e["subset"]["name"] for e in entries], ["Cats"])
        self.assertEqual(done["subsets"]["pending_subsets"], [])
        self.assertAlmostEqual(entries[0]["performance_per_metric"]["accuracy"], 1 / 3)
        train = self.model.performance("train", subsets=True)["subsets"]
        entry = next(iter(train["performance_per_subset"].values()))
        self.assertAlmostEqual(entry["performance_per_metric"]["accuracy"], 1 / 2)  # a, b

    def cli(self, *args: str):
        import os

        env = {"LOUPE_URL": self.client.url, "LOUPE_API_KEY": os.environ["LOUPE_API_KEY"]}
        return run(["performance", "--dataset", self.ds.name, *args], env)

    def test_cli_prints_the_tables(self) -> None:
        done = self.cli("--model", "resnet")
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(
            lines[0], f"Performance of model 'resnet' on dataset '{self.ds.name}' (classification)"
        )
        self.assertEqual(lines[1], "6 items, 1 without a prediction")
        splits = lines[lines.index("Statistics") + 1].split()[1:]
        self.assertEqual(splits[0], "all")
        expected = {"all": "50.00%", "train": "66.67%", "test": "33.33%"}
        accuracy = next(line for line in lines if line.startswith("Accuracy "))
        self.assertEqual(accuracy.split()[1:], [expected[s] for s in splits])
        cat = next(line for line in lines if line.startswith("cat "))
        self.assertIn("50.00%", cat.split())  # F1 of cat in 'all'

    def test_cli_json_and_split(self) -> None:
        done = self.cli("--model", self.model.id, "--json", "--split", "train")
        self.assertEqual(done.returncode, 0, done.stderr)
        answer = json.loads(done.stdout)
        self.assertEqual(answer["model"], {"id": self.model.id, "name": "resnet"})
        self.assertEqual(answer["split"], "train")
        self.assertAlmostEqual(value_of(answer["statistics"], "accuracy", "test"), 1 / 3)
        text = self.cli("--model", "resnet", "--split", "train").stdout
        self.assertIn("Overall performance per class (split train)", text)

    def test_cli_refuses_an_unknown_split_or_model(self) -> None:
        done = self.cli("--model", "resnet", "--split", "validation")
        self.assertEqual(done.returncode, 2)
        self.assertIn("has the splits all, ", done.stderr)
        done = self.cli("--model", "no-such-model")
        self.assertEqual(done.returncode, 1)
        self.assertIn("No prediction set (model) named or with id 'no-such-model'", done.stderr)


if __name__ == "__main__":
    unittest.main()
