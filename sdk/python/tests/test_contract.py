"""The Python SDK's constants against the contract: the server's OpenAPI document
(docs/api/openapi.json, generated from the zod schemas) and the upload protocol's numbers
(packages/contracts/src/upload-protocol.ts, imported by the server and the TypeScript SDK).
No server needed."""

from __future__ import annotations

import json
import re
import unittest
from pathlib import Path
from typing import Any, Dict

from _support import loupe
from loupe import _protocol

REPOSITORY = Path(__file__).resolve().parents[3]
OPENAPI = REPOSITORY / "docs/api/openapi.json"
PROTOCOL_TS = REPOSITORY / "packages/contracts/src/upload-protocol.ts"
TASK_TRAITS_TS = REPOSITORY / "packages/contracts/src/task-traits.ts"

#: `export const NAME = 8 * 1024 * 1024;` or `export const NAME = [429, 502];`
_CONSTANT = re.compile(r"^export const (\w+) = ([0-9_ *]+|\[[0-9, ]*\]);$", re.M)


def typescript_constants() -> Dict[str, Any]:
    constants: Dict[str, Any] = {}
    for name, value in _CONSTANT.findall(PROTOCOL_TS.read_text("utf-8")):
        if value.startswith("["):
            constants[name] = frozenset(int(v) for v in value[1:-1].split(",") if v.strip())
        else:
            product = 1
            for factor in value.replace("_", "").split("*"):
                product *= int(factor)
            constants[name] = product
    return constants


def schema(document: Dict[str, Any], name: str) -> Dict[str, Any]:
    return dict(document["components"]["schemas"][name])


def request_body(document: Dict[str, Any], path: str) -> Dict[str, Any]:
    content = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    body = content["schema"]
    if "$ref" in body:
        return schema(document, body["$ref"].rsplit("/", 1)[-1])
    return dict(body)


@unittest.skipUnless(OPENAPI.exists(), "run from the Loupe repository (docs/api/openapi.json)")
class OpenApiTest(unittest.TestCase):
    document: Dict[str, Any]

    @classmethod
    def setUpClass(cls) -> None:
        cls.document = json.loads(OPENAPI.read_text("utf-8"))

    def test_task_types(self) -> None:
        self.assertEqual(list(loupe.TASK_TYPES), schema(self.document, "TaskType")["enum"])

    def test_data_levels(self) -> None:
        levels = {level for task in loupe.DATA_LEVELS.values() for level in task}
        self.assertEqual(levels, set(schema(self.document, "DataLevel")["enum"]))
        self.assertEqual(set(loupe.DATA_LEVELS), set(loupe.TASK_TYPES))

    def test_rows_per_request(self) -> None:
        samples = request_body(self.document, "/api/datasets/{id}/samples")
        limit = samples["properties"]["samples"]["maxItems"]
        self.assertEqual(limit, _protocol.MAX_ROWS_PER_REQUEST)
        for name, field, limit in [
            ("UploadSamplesRequest", "samples", _protocol.MAX_ROWS_PER_REQUEST),
            ("UploadPredictionsRequest", "predictions", _protocol.MAX_ROWS_PER_REQUEST),
            ("UploadAttributionsRequest", "attributions", _protocol.MAX_ATTRIBUTIONS_PER_REQUEST),
            ("FeatureUploadRequest", "ids", _protocol.MAX_FEATURE_IDS_PER_REQUEST),
        ]:
            with self.subTest(name):
                properties = schema(self.document, name)["properties"]
                self.assertEqual(properties[field]["maxItems"], limit)
        features = schema(self.document, "FeatureUploadRequest")["properties"]["vectors"]
        self.assertEqual(features["maxProperties"], _protocol.MAX_FEATURE_VECTORS_PER_REQUEST)
        missing = request_body(self.document, "/api/datasets/{id}/media/missing")
        limit = missing["properties"]["keys"]["maxItems"]
        self.assertEqual(limit, _protocol.MAX_MISSING_MEDIA_KEYS)


@unittest.skipUnless(PROTOCOL_TS.exists(), "run from the Loupe repository (packages/contracts)")
class ProtocolConstantsTest(unittest.TestCase):
    def test_every_number_matches_upload_protocol_ts(self) -> None:
        expected = typescript_constants()
        self.assertIn("UPLOAD_BODY_BUDGET_BYTES", expected)  # the file was read
        seconds = {"UPLOAD_BACKOFF_MS", "UPLOAD_MAX_BACKOFF_MS", "UPLOAD_TIMEOUT_MS"}
        for name, value in expected.items():
            with self.subTest(name):
                if name in seconds:
                    python = getattr(_protocol, name[: -len("_MS")] + "_S")
                    self.assertEqual(python * 1000, value)
                else:
                    self.assertEqual(getattr(_protocol, name), value)
        ours = {name for name in vars(_protocol) if name.isupper()}
        theirs = {name[: -len("_MS")] + "_S" if name in seconds else name for name in expected}
        self.assertEqual(ours, theirs)  # no number on one side only

    def test_data_levels_of_each_task(self) -> None:
        text = TASK_TRAITS_TS.read_text("utf-8")
        block = text[text.index("export const TASK_TRAITS") :]
        block = block[: block.index("\n};")]
        # `  classification: {` … `dataLevels: ['image'],` … `},` per task type
        levels = {
            task: tuple(re.findall(r"'(\w+)'", values))
            for task, values in re.findall(
                r"^  (\w+): \{[^}]*?dataLevels: \[([^\]\n]*)\],", block, re.M
            )
        }
        self.assertEqual(len(levels), 7)
        self.assertEqual(levels, dict(loupe.DATA_LEVELS))


if __name__ == "__main__":
    unittest.main()
