"""Comparing two models: Client.compare, PredictionSet.compare and `loupe compare` answer the
numbers the comparison page shows. The vocabulary against the contracts, the text against the
TypeScript CLI's fixture and polling without a server; the numbers against the live server on a
small dataset whose comparison is worked out by hand below."""

from __future__ import annotations

import json
import os
import re
import unittest
from pathlib import Path
from typing import Any, Dict, List

from _support import ServerTest, loupe, png
from loupe import _compare
from loupe._compare import compare_text, read_comparison
from test_cli import run

REPOSITORY = Path(__file__).resolve().parents[3]
CONTRACTS_TS = REPOSITORY / "packages/contracts/src/comparison.ts"
FIXTURE_JSON = REPOSITORY / "packages/sdk/src/cli/compare.fixture.json"
FIXTURE_TEXT = REPOSITORY / "packages/sdk/src/cli/compare.fixture.txt"


def _list(text: str, name: str) -> List[str]:
    block = re.search(rf"^export const {name} = \[(.*?)\]", text, re.M | re.S)
    assert block is not None, name
    return re.findall(r"'(\w+)'", block.group(1))


def _labels(text: str, name: str) -> Dict[str, str]:
    block = re.search(rf"^const {name} = \{{(.*?)\}}", text, re.M | re.S)
    assert block is not None, name
    return dict(re.findall(r"(\w+): '([^']*)'", block.group(1)))


@unittest.skipUnless(CONTRACTS_TS.exists(), "run from the Loupe repository (packages/contracts)")
class VocabularyTest(unittest.TestCase):
    def test_categories_subcategories_and_labels_match_the_contracts(self) -> None:
        text = CONTRACTS_TS.read_text("utf-8")
        self.assertEqual(list(_compare.CATEGORIES), _list(text, "COMPARISON_CATEGORIES"))
        self.assertEqual(
            list(_compare.GROUND_TRUTH_SUBCATEGORIES), _list(text, "GROUND_TRUTH_SUBCATEGORIES")
        )
        self.assertEqual(
            list(_compare.PREDICTION_SUBCATEGORIES), _list(text, "PREDICTION_SUBCATEGORIES")
        )
        correct, equal = _labels(text, "CORRECT_LABELS"), _labels(text, "EQUAL_LABELS")
        self.assertEqual(len(correct), 4)  # the table was read
        tasks = dict(re.findall(r"^  (\w+): (CORRECT_LABELS|EQUAL_LABELS),$", text, re.M))
        self.assertEqual(len(tasks), 7)
        for task, labels in tasks.items():
            expected = correct if labels == "CORRECT_LABELS" else equal
            self.assertEqual(_compare.CATEGORY_LABELS[task], expected, task)
        three = re.search(r"THREE_SEGMENT_TASKS[^=]*= \[(.*?)\]", text, re.S)
        self.assertEqual(list(_compare.THREE_SEGMENT_TASKS), re.findall(r"'(\w+)'", three.group(1)))

    def test_messages_match_the_contracts(self) -> None:
        text = CONTRACTS_TS.read_text("utf-8")
        for name, ours in (
            ("failed", _compare.FAILED_MESSAGE),
            ("perClassDisabledTitle", _compare.PER_CLASS_DISABLED_TITLE),
            ("accuracyDisabled", _compare.ACCURACY_DISABLED),
            ("accuracyDisabledHint", _compare.ACCURACY_DISABLED_HINT),
        ):
            found = re.search(rf"^  {name}: ['\"](.*)['\"],$", text, re.M)
            self.assertIsNotNone(found, name)
            self.assertEqual(found.group(1), ours, name)


@unittest.skipUnless(FIXTURE_JSON.exists(), "run from the Loupe repository (packages/sdk)")
class TextTest(unittest.TestCase):
    """The same answer and text as compareText's test in packages/sdk (compare.test.ts)."""

    def setUp(self) -> None:
        self.fixture: Dict[str, Any] = json.loads(FIXTURE_JSON.read_text("utf-8"))

    def test_the_tables(self) -> None:
        text = compare_text("street", "yolo-s", "yolo-m", self.fixture)
        self.assertEqual(text, FIXTURE_TEXT.read_text("utf-8"))

    def test_accuracy_has_no_per_class_breakdown(self) -> None:
        accuracy = dict(
            self.fixture,
            task="classification",
            metric="accuracy",
            iou_threshold=None,
            overall={"accuracy": self.fixture["overall"]["precision"]},
            per_class=None,
            per_class_unavailable=True,
            per_object_gt=None,
            per_object_pred=None,
        )
        del accuracy["subsets"]
        self.assertEqual(
            compare_text("street", "yolo-s", "yolo-m", accuracy),
            "Comparison of model A 'yolo-s' and model B 'yolo-m' on dataset 'street' "
            "(classification)\n"
            "Split all, metric Accuracy\n\n"
            "Overall\n"
            "Metric    Model A  Model B    Delta  Relative   Better\n"
            "Accuracy   80.00%   60.00%  -20.00%   -25.00%  Model A\n\n"
            "Per class breakdown\n"
            'Per-class breakdown is not available for "Accuracy"\n'
            "It's available for all other metrics\n",
        )

    def test_regression_has_three_categories_and_a_value_name(self) -> None:
        regression = dict(
            self.fixture,
            task="regression",
            metric="mean_absolute_error",
            regression_value_name="age",
            iou_threshold=None,
            status="computing",
            progress=0.4,
            overall={},
            per_class=None,
            per_object_gt=None,
            per_object_pred=None,
            per_sample=dict(self.fixture["per_object_gt"], unit="sample", subcategories={}),
        )
        del regression["subsets"]
        text = compare_text("street", "yolo-s", "yolo-m", regression)
        self.assertIn("Split all, metric Mean absolute error, value name age\n\n", text)
        self.assertIn("Status: computing (40%)\n\nOverall\nNo metrics.\n\n", text)
        self.assertIn(
            "Per sample breakdown (10 samples)\n"
            "Category           Items   Share\n"
            "Model A is better      2  20.00%\n"
            "Both are equal         4  40.00%\n"
            "Model B is better      3  30.00%\n\n"
            "IoU difference (B − A): mean 0.013, std 0.25\n",
            text,
        )


def answer(status: str, progress: float) -> Dict[str, Any]:
    done = {
        "status": status, "progress": progress, "data_version": 2, "split": "all",
        "predictions_id_a": "a", "predictions_id_b": "b", "task": "classification",
        "metric": "accuracy", "regression_value_name": None, "iou_threshold": None,
        "overall": {}, "other_metrics": None, "per_class": None, "per_class_unavailable": False,
        "per_word": None, "per_sample": None, "per_object_gt": None, "per_object_pred": None,
    }
    if status == "failed":
        done["error"] = "out of memory"
    return done


class PollingTest(unittest.TestCase):
    """read_comparison against answers given in turn (one state per poll)."""

    def server(self, states: List[Dict[str, Any]]):
        calls: List[Any] = []

        def call(method: str, path: str, query: Any = None, json_body: Any = None) -> Any:
            calls.append((method, path, query or json_body))
            polls = sum(1 for c in calls if c[0] == "POST")
            state = states[min(polls, len(states)) - 1]
            if method == "GET":
                pending = ["x"] * state.get("pending", 0)
                return {"comparison_per_subset": {}, "pending_subsets": pending}
            return answer(state["status"], state["progress"])

        return call, calls

    def test_posts_the_request_and_polls_while_computing(self) -> None:
        call, calls = self.server(
            [{"status": "computing", "progress": 0}, {"status": "computing", "progress": 0.4},
             {"status": "ready", "progress": 1}]
        )
        seen: List[Any] = []
        done = read_comparison(
            call, "d", "a", "b", metric="accuracy", split="train", regression_value_name="age",
            poll=0.001, on_progress=lambda *a: seen.append(a),
        )
        self.assertEqual(done["status"], "ready")
        self.assertNotIn("subsets", done)
        self.assertEqual(seen, [(0, 0), (0.4, 0)])
        self.assertEqual(len(calls), 3)
        self.assertEqual(
            calls[0],
            ("POST", "/api/datasets/d/comparison",
             {"predictions_id_a": "a", "predictions_id_b": "b", "split": "train",
              "metric": "accuracy", "regression_value_name": "age"}),
        )

    def test_waits_for_pending_subsets(self) -> None:
        call, calls = self.server(
            [{"status": "ready", "progress": 1, "pending": 2}, {"status": "ready", "progress": 1}]
        )
        seen: List[Any] = []
        done = read_comparison(
            call, "d", "a", "b", subsets=True, poll=0.001, on_progress=lambda *a: seen.append(a)
        )
        self.assertEqual(done["subsets"]["pending_subsets"], [])
        self.assertEqual(seen, [(1, 2)])
        self.assertIn(
            ("GET", "/api/datasets/d/comparison/subsets",
             {"predictions_id_a": "a", "predictions_id_b": "b", "split": "all"}),
            calls,
        )

    def test_a_failed_computation_raises_its_reason(self) -> None:
        call, _ = self.server([{"status": "failed", "progress": 0.2}])
        with self.assertRaises(loupe.LoupeError) as raised:
            read_comparison(call, "d", "a", "b", poll=0.001)
        self.assertEqual(
            raised.exception.description, "Computing the comparison failed. out of memory"
        )
        self.assertFalse(raised.exception.retriable)

    def test_gives_up_after_the_timeout(self) -> None:
        call, _ = self.server([{"status": "computing", "progress": 0.1}])
        with self.assertRaises(loupe.LoupeError) as raised:
            read_comparison(call, "d", "a", "b", poll=0.005, timeout=0.02)
        self.assertTrue(raised.exception.retriable)
        self.assertEqual(
            raised.exception.description,
            "The comparison is still being computed after 0 s: try again later, or wait longer.",
        )

    def test_no_wait_answers_at_once(self) -> None:
        call, calls = self.server([{"status": "computing", "progress": 0.3}])
        done = read_comparison(call, "d", "a", "b", wait=False)
        self.assertEqual((done["status"], done["progress"]), ("computing", 0.3))
        self.assertEqual(len(calls), 1)


# ---- against the server
#
# Six images, classes cat and dog, and what models A and B predict (as compare.int.test.ts):
#   train: a cat (A cat, B cat), b cat (A dog, B cat), c dog (A dog, B dog)
#   test:  d dog (A dog, B cat), e cat (A dog, B cat), f dog (A none: wrong, B dog)
# Accuracy: A 3/6, B 5/6: delta 1/3, relative (1/3)/(1/2) = 66.67 %, B better.
# Per sample: A better on d, B better on b e f, both correct on a c.
# Macro F1: A (1/2 + 4/7)/2 = 15/28, B (6/7 + 4/5)/2 = 29/35; per class F1: cat +5/14, dog +8/35.
# Train (a b c): accuracy A 2/3, B 1. The subset {a, b, e}: accuracy A 1/3, B 1.
SAMPLES = [
    ("a", "train", "cat", "cat", "cat"),
    ("b", "train", "cat", "dog", "cat"),
    ("c", "train", "dog", "dog", "dog"),
    ("d", "test", "dog", "dog", "cat"),
    ("e", "test", "cat", "dog", "cat"),
    ("f", "test", "dog", None, "dog"),
]


class CompareServerTest(ServerTest):
    def setUp(self) -> None:
        super().setUp()
        self.ds = self.dataset("compare", "classification", class_names=["cat", "dog"])
        self.ds.upload_samples(
            {"id": f"{i}.png", "image": png(2, 2, (n * 20, 0, 0)), "split": split, "label": label}
            for n, (i, split, label, _, _) in enumerate(SAMPLES)
        )
        self.a = self.ds.upload_predictions(
            "model-a",
            [{"id": f"{i}.png", "label": a, "score": 0.9} for i, _, _, a, _ in SAMPLES if a],
        )
        self.b = self.ds.upload_predictions(
            "model-b", [{"id": f"{i}.png", "label": b, "score": 0.8} for i, _, _, _, b in SAMPLES]
        )

    def test_the_numbers_worked_out_by_hand(self) -> None:
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
        done = self.client.compare(
            self.a, self.b, metric="macro_f1_score", subsets=True, timeout=120
        )
        self.assertEqual(
            (done["status"], done["task"], done["metric"]),
            ("ready", "classification", "macro_f1_score"),
        )
        accuracy = done["overall"]["accuracy"]
        self.assertAlmostEqual(accuracy["model_a"], 1 / 2)
        self.assertAlmostEqual(accuracy["model_b"], 5 / 6)
        self.assertAlmostEqual(accuracy["raw_delta"], 1 / 3)
        self.assertAlmostEqual(accuracy["relative_delta"], 200 / 3)
        self.assertEqual(accuracy["better"], "model_b_is_better")
        self.assertAlmostEqual(done["overall"]["macro_f1_score"]["model_a"], 15 / 28)
        self.assertAlmostEqual(done["overall"]["macro_f1_score"]["model_b"], 29 / 35)
        per_class = done["per_class"]
        self.assertEqual(per_class["model_a_is_better"], [])
        b_better = [(e["entity"], e["raw_delta"]) for e in per_class["model_b_is_better"]]
        self.assertEqual([entity for entity, _ in b_better], ["cat", "dog"])
        self.assertAlmostEqual(b_better[0][1], 5 / 14)
        self.assertAlmostEqual(b_better[1][1], 8 / 35)
        per_sample = done["per_sample"]
        self.assertEqual(
            [per_sample[c]["num_items"] for c in _compare.CATEGORIES], [1, 0, 2, 3]
        )
        entries = list(done["subsets"]["comparison_per_subset"].values())
        self.assertEqual([e["subset"]["name"] for e in entries], ["Cats"])
        cats = entries[0]["comparison_per_metric"]["accuracy"]
        self.assertAlmostEqual(cats["model_a"], 1 / 3)
        self.assertAlmostEqual(cats["model_b"], 1)
        self.assertEqual(cats["category"], "model_b_is_better")

    def test_another_split_by_name_and_accuracy_without_per_class(self) -> None:
        train = self.a.compare("model-b", split="train", timeout=120)
        self.assertEqual((train["split"], train["metric"]), ("train", "accuracy"))
        self.assertAlmostEqual(train["overall"]["accuracy"]["model_a"], 2 / 3)
        self.assertAlmostEqual(train["overall"]["accuracy"]["model_b"], 1)
        self.assertIsNone(train["per_class"])
        self.assertTrue(train["per_class_unavailable"])
        self.assertEqual(train["per_sample"]["model_b_is_better"]["num_items"], 1)
        waiting = self.a.compare(self.b, wait=False)
        self.assertIn(waiting["status"], ("computing", "ready"))

    def test_the_same_model_twice_is_refused_with_the_server_description(self) -> None:
        with self.assertRaises(loupe.LoupeError) as raised:
            self.client.compare(self.a, self.a)
        self.assertEqual(raised.exception.status, 400)
        self.assertEqual(
            raised.exception.description, "Model A and model B must be two different models."
        )

    def cli(self, *args: str):
        env = {"LOUPE_URL": self.client.url, "LOUPE_API_KEY": os.environ["LOUPE_API_KEY"]}
        return run(["compare", "--dataset", self.ds.name, *args], env)

    def test_cli_prints_the_tables_and_json(self) -> None:
        done = self.cli("--model-a", "model-a", "--model-b", self.b.id)
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(
            lines[0],
            f"Comparison of model A 'model-a' and model B 'model-b' on dataset '{self.ds.name}' "
            "(classification)",
        )
        self.assertEqual(lines[1], "Split all, metric Accuracy")
        accuracy = next(line for line in lines if line.startswith("Accuracy "))
        self.assertEqual(
            re.split(r"\s{2,}", accuracy),
            ["Accuracy", "50.00%", "83.33%", "+33.33%", "+66.67%", "Model B"],
        )
        self.assertIn('Per-class breakdown is not available for "Accuracy"', lines)
        done = self.cli("--model-a", "model-a", "--model-b", "model-b", "--json")
        self.assertEqual(done.returncode, 0, done.stderr)
        answer = json.loads(done.stdout)
        self.assertEqual(answer["model_b"], {"id": self.b.id, "name": "model-b"})
        self.assertAlmostEqual(answer["overall"]["accuracy"]["model_b"], 5 / 6)

    def test_cli_refuses_the_same_model_and_an_unknown_split(self) -> None:
        done = self.cli("--model-a", "model-a", "--model-b", "model-a")
        self.assertEqual(done.returncode, 1)
        self.assertIn("Model A and model B must be two different models.", done.stderr)
        done = self.cli("--model-a", "model-a", "--model-b", "model-b", "--split", "validation")
        self.assertEqual(done.returncode, 2)
        self.assertIn("has the splits all, ", done.stderr)


if __name__ == "__main__":
    unittest.main()
