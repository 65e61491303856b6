"""The upload protocol (docs/sdk-protocol.md): the shared corpus against the live server, and the
engine's rules against a fake endpoint."""

from __future__ import annotations

import json
import threading
import unittest
from array import array
from pathlib import Path
from typing import Any, Dict, List

from _support import BODY_LIMIT_MB, ServerTest, client, loupe
from loupe._upload import Body, BodyBudget, Endpoint, Row, upload

REPOSITORY = Path(__file__).resolve().parents[3]
CORPUS = json.loads((REPOSITORY / "sdk/protocol-corpus/cases.json").read_text("utf-8"))


def samples_of(case: Dict[str, Any]) -> List[Dict[str, Any]]:
    large = case.get("large_notes", {})
    return [
        {
            "id": f"{case['id_prefix']}{i}",
            "metadata": {"i": i, "note": "x" * large.get(str(i), case.get("note_chars", 0))},
        }
        for i in range(case["rows"])
    ]


def vectors_of(case: Dict[str, Any]) -> Dict[str, "array[float]"]:
    dimension = case["dimension"]
    steps = [(j * 17) % 1000 for j in range(dimension)]
    table = [k / 1000 - 0.5 for k in range(1000)]
    return {
        f"{case['id_prefix']}{i}": array("f", [table[(i * 31 + s) % 1000] for s in steps])
        for i in range(case["rows"])
    }


@unittest.skipUnless(
    BODY_LIMIT_MB == CORPUS["server_body_limit_mb"],
    f"the corpus needs a server with LOUPE_BODY_LIMIT_MB={CORPUS['server_body_limit_mb']} "
    "(node scripts/test-python-sdk.mjs starts one)",
)
class CorpusTest(ServerTest):
    """Every case of sdk/protocol-corpus/cases.json, as the TypeScript SDK's test runs them."""

    def watch(self, made: loupe.Client, suffix: str) -> List[Dict[str, Any]]:
        """Writes down the POSTs of rows to paths ending in ``suffix``: ids and whether refused."""
        requests: List[Dict[str, Any]] = []
        lock = threading.Lock()
        original = made._call

        def spy(method: str, path: str, **kwargs: Any) -> Any:
            if not (method == "POST" and path.endswith(suffix)):
                return original(method, path, **kwargs)
            body = json.loads(kwargs["body"])
            ids = body["ids"] if "ids" in body else [row["id"] for row in body["samples"]]
            request = {"ids": ids, "refused": False}
            with lock:
                requests.append(request)
            try:
                return original(method, path, **kwargs)
            except loupe.LoupeError as error:
                request["refused"] = error.status == 413
                raise

        made._call = spy  # type: ignore[method-assign]
        return requests

    def check_refusals(self, expect: Dict[str, Any], requests: List[Dict[str, Any]]) -> None:
        refused = sum(1 for request in requests if request["refused"])
        if "refused" in expect:
            self.assertEqual(refused, expect["refused"])
        if "refused_at_least" in expect:
            self.assertGreaterEqual(refused, expect["refused_at_least"])
        if "refused_at_most" in expect:
            self.assertLessEqual(refused, expect["refused_at_most"])

    def run_case(self, case: Dict[str, Any]) -> None:
        expect = case["expect"]
        dataset = self.dataset("corpus", case["task_type"])
        made = client()  # a new client: a new body budget
        self.addCleanup(made.close)
        if case["upload"] == "features":
            dataset.upload_samples({"id": f"{case['id_prefix']}{i}"} for i in range(case["rows"]))
            vectors = vectors_of(case)
            requests = self.watch(made, "/features")
            info = made.get_dataset(dataset.id).upload_features("clip", vectors)
            self.assertEqual(info["num_present"], expect["num_present"])
            self.assertEqual(info["num_missing"], expect["num_missing"])
            self.assertEqual(info["size"], expect["size"])
            self.check_refusals(expect, requests)
            return
        requests = self.watch(made, "/samples")
        target = made.get_dataset(dataset.id)
        options = {"batch_size": case["batch_rows"]} if "batch_rows" in case else {}
        if "status" in expect:
            with self.assertRaises(loupe.LoupeError) as caught:
                target.upload_samples(samples_of(case), **options)
            error = caught.exception
            self.assertEqual(error.status, expect["status"])
            self.assertEqual(error.errors[0]["row"], expect["error_row"])
            self.assertEqual(error.errors[0]["id"], expect["error_id"])
            description = error.description
            self.assertTrue(description.startswith(expect["message_starts"]), description)
            self.assertEqual(requests[-1]["ids"], expect["last_request"])
        else:
            result = target.upload_samples(samples_of(case), **options)
            self.assertEqual(result["created"], expect["created"])
        if "requests" in expect:
            self.assertEqual(len(requests), expect["requests"])
        self.check_refusals(expect, requests)
        self.assertEqual(dataset.refresh().samples_count, expect["samples_count"])

    def test_corpus(self) -> None:
        for case in CORPUS["cases"]:
            with self.subTest(case["name"]):
                self.run_case(case)


class FakeEndpoint:
    """A server in memory: refuses bodies over ``limit`` bytes with 413, or rows it is told to."""

    def __init__(self, limit: int, refuse_ids: Any = ()) -> None:
        self.limit = limit
        self.refuse_ids = set(refuse_ids)
        self.bodies: List[Dict[str, Any]] = []
        self.lock = threading.Lock()
        self.body = Body("samples", {})

    def endpoint(self, max_rows: int = 20_000) -> Endpoint:
        return Endpoint(self.body.of, self.body.envelope, max_rows, self.post)

    def post(self, data: bytes) -> Any:
        rows = json.loads(data)["samples"]
        with self.lock:
            self.bodies.append({"size": len(data), "ids": [row["id"] for row in rows]})
        if len(data) > self.limit:
            raise loupe.LoupeError(413, "The request body is larger than the limit.")
        bad = [i for i, row in enumerate(rows) if row["id"] in self.refuse_ids]
        if bad:
            errors = [
                {"row": i, "id": rows[i]["id"], "field": "label", "message": "no"} for i in bad
            ]
            raise loupe.LoupeError(400, "The batch was rejected.", False, errors)
        return {"created": len(rows)}


def rows_of(sizes: List[int], start: int = 0) -> List[Row]:
    """Rows ``r<start>``, … whose JSON ``{"id":"r<i>","n":"xxx…"}`` is about ``size`` bytes."""
    made = []
    for index, size in enumerate(sizes, start):
        text = json.dumps({"id": f"r{index}", "n": "x" * max(0, size - 20)}, separators=(",", ":"))
        made.append(Row(index, f"r{index}", len(text) + 1, text))
    return made


class EngineTest(unittest.TestCase):
    def run_upload(self, fake: FakeEndpoint, batches: List[List[Row]], budget: BodyBudget) -> int:
        landed: List[int] = []
        batches_to_send = [(rows, fake.endpoint()) for rows in batches]
        upload(budget, batches_to_send, lambda rows, answer: landed.append(len(rows)))
        return sum(landed)

    def test_bodies_stay_within_the_budget_and_keep_the_row_order(self) -> None:
        fake = FakeEndpoint(limit=10**9)
        rows = rows_of([1000] * 50)
        self.assertEqual(self.run_upload(fake, [rows], BodyBudget(5_000)), 50)
        self.assertTrue(all(body["size"] <= 5_000 for body in fake.bodies))
        self.assertEqual(len(fake.bodies), 13)  # 4 rows of ~1 kB per body, the last holds 2
        sent = sorted((body["ids"] for body in fake.bodies), key=lambda ids: int(ids[0][1:]))
        self.assertEqual([i for ids in sent for i in ids], [row.id for row in rows])

    def test_a_413_halves_the_budget_for_the_rest_of_the_upload(self) -> None:
        fake = FakeEndpoint(limit=20_000)
        budget = BodyBudget(40_000)  # half of a refused body fits the limit
        batches = [rows_of([1000] * 60) for _ in range(6)]
        self.assertEqual(self.run_upload(fake, batches, budget), 360)
        refused = [body for body in fake.bodies if body["size"] > fake.limit]
        # the two requests in flight at the first refusal, then never again
        self.assertLessEqual(len(refused), 2)
        self.assertLessEqual(budget.limit, 20_000)

    def test_a_single_row_over_the_limit_is_named_and_nothing_follows(self) -> None:
        fake = FakeEndpoint(limit=20_000)
        rows = rows_of([100, 100, 100, 50_000, 100])
        with self.assertRaises(loupe.LoupeError) as caught:
            self.run_upload(fake, [rows], BodyBudget(100_000))
        error = caught.exception
        self.assertEqual(error.status, 413)
        self.assertEqual(error.errors[0]["row"], 3)
        self.assertIn("Row 3 (id r3) cannot be sent", str(error))
        self.assertEqual(fake.bodies[-1]["ids"], ["r3"])

    def test_row_errors_count_from_the_start_of_the_upload(self) -> None:
        fake = FakeEndpoint(limit=10**9, refuse_ids={"r7"})
        with self.assertRaises(loupe.LoupeError) as caught:
            self.run_upload(fake, [rows_of([100] * 5), rows_of([100] * 5, 5)], BodyBudget(10**6))
        self.assertEqual(caught.exception.errors[0]["row"], 7)
        self.assertEqual(caught.exception.errors[0]["id"], "r7")


if __name__ == "__main__":
    unittest.main()
