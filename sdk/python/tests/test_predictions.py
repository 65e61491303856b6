"""Features, prediction sets, predictions and attributions."""

from __future__ import annotations

import unittest

from _support import BODY_LIMIT_MB, ServerTest, small_body_limit, grey_png, loupe, png


class FeaturesTest(ServerTest):
    def setUp(self) -> None:
        super().setUp()
        self.ds = self.dataset("feat", "object_detection", class_names=["car"])
        self.ds.upload_samples(
            [
                {
                    "id": f"s{i}",
                    "image": png(4, 4, (i, i, i)),
                    "objects": [{"id": f"s{i}-car", "label": "car", "bbox": [0, 0, 2, 2]}],
                }
                for i in range(3)
            ]
        )

    def test_binary_form(self) -> None:
        info = self.ds.upload_features(
            "embedding", {"s0": [0.5, 1, -2], "s1": [0, 0, 1], "s2": [3.25, 2, 1]}
        )
        self.assertEqual(info["data_level"], "image")  # the task's first level
        self.assertEqual(info["size"], 3)
        self.assertEqual(info["num_present"], 3)
        self.assertEqual(info["num_missing"], 0)

    def test_json_form_and_object_level(self) -> None:
        info = self.ds.upload_features(
            "crop", [("s0-car", [1.0, 2.0]), ("s1-car", [3.0, 4.0])], "image_object", binary=False
        )
        self.assertEqual(info["data_level"], "image_object")
        self.assertEqual(info["num_present"], 2)
        names = {(f["name"], f["data_level"]) for f in self.ds.features()}
        self.assertIn(("crop", "image_object"), names)

    @small_body_limit
    def test_large_uploads_are_split_to_fit_the_body_limit(self) -> None:
        ds = self.dataset("bigfeat", "classification")
        ids = [f"b{i}" for i in range(300)]
        ds.upload_samples({"id": i, "image": "https://example.com/b.png"} for i in ids)
        dimension = int(BODY_LIMIT_MB * 1024 * 1024 / 300 / 4 * 1.5)  # 1.5× the limit in float32
        info = ds.upload_features("wide", {i: [0.25] * dimension for i in ids})
        self.assertEqual(info["size"], dimension)
        self.assertEqual(info["num_present"], 300)

    def test_uneven_vectors_are_refused_before_sending(self) -> None:
        with self.assertRaises(loupe.LoupeInputError) as caught:
            self.ds.upload_features("bad", {"s0": [1, 2], "s1": [1]})
        self.assertEqual(caught.exception.errors[0]["id"], "s1")

    def test_unknown_sample_id_is_a_row_error(self) -> None:
        with self.assertRaises(loupe.LoupeError) as caught:
            self.ds.upload_features("emb", {"s0": [1.0], "ghost": [2.0]})
        self.assertEqual(caught.exception.status, 400)
        self.assertEqual(caught.exception.errors[0]["id"], "ghost")


class PredictionFeaturesTest(ServerTest):
    def test_model_features_beside_the_dataset_features(self) -> None:
        ds = self.dataset("modelfeat", "classification", class_names=["cat"])
        ds.upload_samples([{"id": f"m{i}", "image": png(4, 4, (i, 1, 2))} for i in range(3)])
        ds.upload_features("emb", {"m0": [1.0, 2.0, 3.0]})
        model = ds.upload_predictions("net", [{"id": "m0", "label": "cat"}])
        info = model.upload_features("emb", {"m0": [0.5, 1.0], "m1": [2.0, -1.0]})
        self.assertEqual((info["size"], info["num_present"], info["num_missing"]), (2, 2, 1))
        json_info = model.upload_features("logits", [("m2", [4.0])], binary=False)
        self.assertEqual(json_info["num_present"], 1)
        listed = model.features()
        self.assertEqual(
            [(f["name"], f["size"]) for f in listed["predictions_features"]],
            [("emb", 2), ("logits", 1)],
        )
        # The dataset's own (with any it computed): its emb keeps 3 values, and no logits.
        dataset_features = {f["name"]: f["size"] for f in listed["dataset_features"]}
        self.assertEqual(dataset_features["emb"], 3)
        self.assertNotIn("logits", dataset_features)
        self.assertEqual({f["name"]: f["size"] for f in ds.features()}, dataset_features)
        with self.assertRaises(loupe.LoupeError) as caught:
            model.upload_features("emb", {"ghost": [1.0, 1.0]})
        self.assertEqual(caught.exception.errors[0]["id"], "ghost")


class PredictionsTest(ServerTest):
    def test_classification_predictions_and_attributions(self) -> None:
        ds = self.dataset("pred", "classification", class_names=["cat", "dog"])
        ds.upload_samples(
            [{"id": f"p{i}", "image": png(4, 4, (i, 0, 9)), "label": "cat"} for i in range(4)]
        )
        predictions = [
            {"id": "p0", "label": "cat", "score": 0.9, "probabilities": [0.9, 0.1]},
            {"id": "p1", "label": "dog", "score": 0.6, "probabilities": {"cat": 0.4, "dog": 0.6}},
            {"id": "p2", "label": "cat", "score": 0.7},
        ]
        model = ds.upload_predictions("checkpoint-a", predictions, batch_size=2)
        self.assertIsInstance(model, loupe.PredictionSet)
        self.assertEqual(model.upload_result, {"created": 3, "updated": 0, "unchanged": 0})
        self.assertEqual(model.num_present, 3)
        self.assertEqual(model.num_missing, 1)

        again = ds.upload_predictions("checkpoint-a", predictions)  # exist_ok: same set
        self.assertEqual(again.id, model.id)
        self.assertEqual(again.upload_result["created"], 0)
        self.assertEqual(again.num_present, 3)
        self.assertEqual([m.name for m in ds.prediction_sets()], ["checkpoint-a"])

        heat = self.write("heat.png", grey_png([[0, 128], [255, 64]]))
        result = model.upload_attributions(
            [{"id": "p0", "heatmap": [[0.0, 0.5], [1.0, 0.25]]}, {"id": "p1", "heatmap": heat}]
        )
        self.assertEqual(result, {"uploaded": 2})

    def test_detection_predictions_with_scores(self) -> None:
        ds = self.dataset("detpred", "object_detection", class_names=["car"])
        ds.upload_samples([{"id": "a", "image": png(8, 8), "objects": []}])
        model = ds.upload_predictions(
            "detector",
            [{"id": "a", "objects": [{"label": "car", "bbox": [1, 1, 3, 3], "score": 0.8}]}],
        )
        self.assertEqual(model.num_present, 1)

    def test_semantic_prediction_mask_from_bytes(self) -> None:
        ds = self.dataset("sempred", "semantic_segmentation", class_names=["bg", "road"])
        ds.upload_samples([{"id": "a", "image": png(2, 2), "mask": grey_png([[0, 1], [1, 1]])}])
        model = ds.upload_predictions("segmenter", [{"id": "a", "mask": grey_png([[0, 0], [1, 1]])}])
        self.assertEqual(model.num_present, 1)

    def test_prediction_for_unknown_sample(self) -> None:
        ds = self.dataset("ghost", "classification", class_names=["cat"])
        ds.upload_samples([{"id": "a", "image": png()}])
        with self.assertRaises(loupe.LoupeError) as caught:
            ds.upload_predictions("m", [{"id": "a", "label": "cat"}, {"id": "zzz", "label": "cat"}])
        self.assertEqual(caught.exception.errors[0]["row"], 1)
        self.assertIn("no sample with id 'zzz'", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
