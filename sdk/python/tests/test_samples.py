"""Uploading samples of every task type, media handling, resuming and row errors."""

from __future__ import annotations

import datetime as dt
import io
import json
import sys
import threading
import unittest
from unittest import mock

from _support import BODY_LIMIT_MB, ServerTest, small_body_limit, grey_png, loupe, png, wav


class UploadEveryTaskTest(ServerTest):
    def test_classification_with_local_files_bytes_and_metadata(self) -> None:
        ds = self.dataset("cls", "classification", class_names=["cat", "dog"])
        cat = self.write("photos/cat.png", png(rgb=(1, 2, 3)))
        taken = dt.datetime(2024, 5, 17, 21, 30, tzinfo=dt.timezone.utc)
        result = ds.upload_samples(
            [
                {
                    "id": "cat.png",
                    "image": cat,  # a pathlib.Path
                    "label": "cat",
                    "split": "train",
                    "metadata": {"hour": 21, "camera": "A", "night": True, "taken": taken},
                },
                {
                    "id": "dog.png",
                    "image": png(rgb=(9, 9, 9)),  # raw bytes
                    "label": "dog",
                    "split": "test",
                    "metadata": {"hour": 8, "camera": "B", "night": False, "taken": taken},
                },
                {
                    "id": "rel.png",
                    "image": "photos/cat.png",  # relative to base_dir
                    "label": "cat",
                    "split": "train",
                },
            ],
            base_dir=self.tmp,
        )
        self.assertEqual(result, {"created": 3, "updated": 0, "unchanged": 0})
        ds.refresh()
        self.assertEqual(ds.samples_count, 3)
        self.assertEqual(sorted(ds.splits), ["test", "train"])
        self.assertEqual(ds.class_names, ["cat", "dog"])

        # `taken` was declared a timestamp field: epoch seconds are accepted, text is not.
        later = ds.upload_samples(
            [{"id": "late.png", "image": png(), "metadata": {"taken": 1_700_000_000}}]
        )
        self.assertEqual(later["created"], 1)
        with self.assertRaises(loupe.LoupeError) as caught:
            ds.upload_samples([{"id": "x.png", "image": png(), "metadata": {"taken": "soon"}}])
        self.assertIn("metadata.taken: expected an ISO 8601 date-time", str(caught.exception))

    def test_regression_values_as_dict_and_list(self) -> None:
        ds = self.dataset("reg", "regression", value_names=["width", "height"])
        result = ds.upload_samples(
            [
                {"id": "a", "image": png(rgb=(5, 5, 5)), "values": {"width": 1.5, "height": 2}},
                {"id": "b", "image": png(rgb=(6, 6, 6)), "values": [3.0, 4.0]},
            ]
        )
        self.assertEqual(result["created"], 2)
        self.assertEqual(ds.refresh().value_names, ["width", "height"])

    def test_object_detection_objects_count(self) -> None:
        ds = self.dataset("det", "object_detection", class_names=["car", "person"])
        ds.upload_samples(
            [
                {
                    "id": "street.png",
                    "image": png(8, 8),
                    "objects": [
                        {"label": "car", "bbox": [0, 0, 4, 3]},
                        {"label": "person", "bbox": [5, 1, 2, 6], "iscrowd": False},
                    ],
                },
                {"id": "empty.png", "image": png(8, 8, (0, 0, 0)), "objects": []},
            ]
        )
        ds.refresh()
        self.assertEqual(ds.samples_count, 2)
        self.assertEqual(ds.objects_count, 2)

    def test_instance_segmentation_polygons_and_rle(self) -> None:
        ds = self.dataset("inst", "instance_segmentation")
        ds.upload_samples(
            [
                {
                    "id": "a.png",
                    "image": png(8, 8),
                    "objects": [
                        {"label": "blob", "segmentation": [[0, 0, 4, 0, 4, 4, 0, 4]]},
                        {
                            "label": "crowd",
                            "bbox": [0, 0, 8, 8],
                            "segmentation": {"size": [8, 8], "counts": [10, 20, 34]},
                            "iscrowd": True,
                        },
                    ],
                }
            ]
        )
        ds.refresh()
        self.assertEqual(ds.objects_count, 2)
        self.assertEqual(sorted(ds.class_names), ["blob", "crowd"])  # learned from the labels

    def test_semantic_segmentation_masks_from_files(self) -> None:
        ds = self.dataset(
            "sem", "semantic_segmentation", label_map={0: "background", 1: "road"}
        )
        mask = self.write("masks/a.png", grey_png([[0, 1], [1, 0]]))
        result = ds.upload_samples([{"id": "a.png", "image": png(2, 2), "mask": mask}])
        self.assertEqual(result["created"], 1)
        self.assertEqual(ds.refresh().class_names, ["background", "road"])
        self.assertEqual(ds.data["label_map"], {"0": "background", "1": "road"})

    def test_audio_classification(self) -> None:
        ds = self.dataset("audio", "audio_classification", class_names=["bark", "meow"])
        clip = self.write("clips/bark.wav", wav(level=500))
        result = ds.upload_samples(
            [
                {"id": "bark.wav", "audio": str(clip), "label": "bark", "split": "train"},
                {"id": "meow.wav", "audio": wav(level=900), "label": "meow", "split": "train"},
            ]
        )
        self.assertEqual(result["created"], 2)

    def test_speech_recognition_transcripts(self) -> None:
        ds = self.dataset("asr", "automatic_speech_recognition")
        result = ds.upload_samples(
            [
                {"id": "hello.wav", "audio": wav(level=123), "transcript": "hello world"},
                {"id": "bye.wav", "audio": wav(level=321), "transcript": "good bye"},
            ]
        )
        self.assertEqual(result, {"created": 2, "updated": 0, "unchanged": 0})


class ResumeAndIdempotenceTest(ServerTest):
    def samples(self, count: int):
        return [
            {
                "id": f"img-{i}.png",
                "image": png(2, 2, (i, 0, 0)),
                "label": "even" if i % 2 == 0 else "odd",
                "metadata": {"index": i},
            }
            for i in range(count)
        ]

    def test_reupload_is_unchanged(self) -> None:
        ds = self.dataset("again", "classification")
        first = ds.upload_samples(self.samples(12), batch_size=5)
        self.assertEqual(first, {"created": 12, "updated": 0, "unchanged": 0})
        second = ds.upload_samples(self.samples(12), batch_size=5)
        self.assertEqual(second, {"created": 0, "updated": 0, "unchanged": 12})
        self.assertEqual(ds.refresh().samples_count, 12)

    def test_changed_sample_is_updated(self) -> None:
        ds = self.dataset("update", "classification")
        ds.upload_samples(self.samples(3))
        changed = self.samples(3)
        changed[1]["label"] = "even"
        self.assertEqual(ds.upload_samples(changed), {"created": 0, "updated": 1, "unchanged": 2})

    def test_interrupted_upload_resumes_without_duplicates(self) -> None:
        ds = self.dataset("resume", "classification")
        samples = self.samples(10)
        seen = []

        def interrupted():
            for sample in samples:
                if len(seen) == 7:  # the process dies while preparing the second batch
                    raise KeyboardInterrupt
                seen.append(sample)
                yield sample

        with self.assertRaises(KeyboardInterrupt):
            ds.upload_samples(interrupted(), batch_size=4)
        self.assertEqual(ds.refresh().samples_count, 4)  # the first batch landed whole
        result = ds.upload_samples(samples, batch_size=4)
        self.assertEqual(result, {"created": 6, "updated": 0, "unchanged": 4})
        self.assertEqual(ds.refresh().samples_count, 10)

    def test_media_already_on_the_server_is_not_sent_again(self) -> None:
        ds = self.dataset("media", "classification")
        picture = png(3, 3, (7, 7, 7))
        ds.upload_samples([{"id": "one", "image": picture}])
        sent = []
        original = ds.client._call

        def spy(method, path, **kwargs):
            if path.endswith("/media"):
                sent.append(path)
            return original(method, path, **kwargs)

        ds.client._call = spy  # type: ignore[method-assign]
        ds.upload_samples([{"id": "two", "image": picture}, {"id": "three", "image": picture}])
        self.assertEqual(sent, [])
        self.assertEqual(ds.refresh().samples_count, 3)

    def test_urls_are_passed_through(self) -> None:
        ds = self.dataset("urls", "classification")
        result = ds.upload_samples([{"id": "remote", "image": "https://example.com/a.png"}])
        self.assertEqual(result["created"], 1)

    @small_body_limit
    def test_batches_over_the_body_limit_are_split(self) -> None:
        ds = self.dataset("split413", "classification")
        note = "x" * 9000
        count = int(BODY_LIMIT_MB * 1024 * 1024 / 9000 * 1.6) + 2
        samples = [
            {"id": f"s{i}", "image": "https://example.com/a.png", "metadata": {"note": note}}
            for i in range(count)
        ]
        size = len(json.dumps({"samples": samples}))
        self.assertGreater(size, BODY_LIMIT_MB * 1024 * 1024)  # one request could not hold it
        result = ds.upload_samples(samples, batch_size=count)
        self.assertEqual(result["created"], count)
        self.assertEqual(ds.refresh().samples_count, count)


class PipelineTest(ServerTest):
    def test_two_batches_are_in_flight_and_none_is_sent_after_a_refused_one(self) -> None:
        ds = self.dataset("pipelined", "classification", class_names=["cat"])
        events = []
        lock = threading.Lock()
        second_done = threading.Event()
        original = ds.client._call

        def spy(method, path, **kwargs):
            if not (method == "POST" and path.endswith("/samples")):
                return original(method, path, **kwargs)
            with lock:
                post = sum(event.endswith("sent") for event in events) + 1
                events.append(f"samples {post} sent")
            # The first batch stays in flight until the second has been sent and answered (or
            # 5 s, after which the checks below fail): a client sending one batch at a time
            # never gets there.
            if post == 1:
                second_done.wait(5)
            try:
                result = original(method, path, **kwargs)
                events.append(f"samples {post} answered")
                return result
            except loupe.LoupeError as error:
                events.append(f"samples {post} refused {error.status}")
                raise
            finally:
                if post == 2:
                    second_done.set()

        ds.client._call = spy  # type: ignore[method-assign]
        rows = [
            {"id": "a", "label": "cat"},
            {"id": "b", "label": "cat"},
            {"id": "c", "label": "dog"},  # refused: not a class name
            {"id": "d", "label": "cat"},
            {"id": "e", "label": "cat"},
            {"id": "f", "label": "cat"},
        ]
        with self.assertRaises(loupe.LoupeError) as caught:
            ds.upload_samples(rows, batch_size=2)
        self.assertEqual(caught.exception.errors[0]["row"], 2)
        self.assertEqual(caught.exception.errors[0]["field"], "label")
        self.assertEqual(
            events,
            [
                "samples 1 sent",
                "samples 2 sent",  # while the first batch is in flight
                "samples 2 refused 400",
                "samples 1 answered",  # the batch in flight beside the refused one lands
            ],
        )
        self.assertEqual(ds.refresh().samples_count, 2)


class OversizedRowTest(ServerTest):
    @small_body_limit
    def test_a_row_over_the_body_limit_is_named(self) -> None:
        ds = self.dataset("huge", "automatic_speech_recognition")
        rows = [
            {"id": "small.wav", "audio": "https://example.com/a.wav", "transcript": "hi"},
            {
                "id": "huge.wav",
                "audio": "https://example.com/b.wav",
                "transcript": "word " * int(BODY_LIMIT_MB * 1024 * 1024 / 5 + 10),
            },
        ]
        with self.assertRaises(loupe.LoupeError) as caught:
            ds.upload_samples(rows)
        error = caught.exception
        self.assertEqual(error.status, 413)
        self.assertIn("Row 1 (id huge.wav) cannot be sent", str(error))
        self.assertEqual(error.errors[0]["row"], 1)
        self.assertEqual(ds.refresh().samples_count, 1)  # the other half of the batch landed


class ProgressBarTest(ServerTest):
    def test_forced_progress_bar_counts_the_samples(self) -> None:
        ds = self.dataset("progress", "classification")
        stderr = io.StringIO()
        with mock.patch.object(sys, "stderr", stderr):
            ds.upload_samples(
                ({"id": f"p{i}", "image": "https://example.com/p.png"} for i in range(3)),
                progress=True,
            )
        self.assertIn("uploading samples  3 ", stderr.getvalue())
        quiet = io.StringIO()
        with mock.patch.object(sys, "stderr", quiet):
            ds.upload_samples([{"id": "q", "image": "https://example.com/q.png"}])
        self.assertEqual(quiet.getvalue(), "")  # the test client says progress=False


class RowErrorsTest(ServerTest):
    def test_bad_row_names_row_id_and_field_and_writes_nothing(self) -> None:
        ds = self.dataset("bad", "classification", class_names=["cat", "dog"])
        rows = [
            {"id": "ok-1", "image": png(2, 2, (1, 1, 1)), "label": "cat", "metadata": {"hour": 1}},
            {"id": "ok-2", "image": png(2, 2, (2, 2, 2)), "label": "dog", "metadata": {"hour": 2}},
            {"id": "bad.png", "image": png(2, 2, (3, 3, 3)), "label": "cow"},
        ]
        with self.assertRaises(loupe.LoupeError) as caught:
            ds.upload_samples(rows)
        error = caught.exception
        self.assertEqual(error.status, 400)
        self.assertFalse(error.retriable)
        self.assertEqual(error.errors[0]["row"], 2)
        self.assertEqual(error.errors[0]["id"], "bad.png")
        self.assertEqual(error.errors[0]["field"], "label")
        self.assertIn("row 2 (id bad.png), label:", str(error))
        self.assertEqual(ds.refresh().samples_count, 0)  # the batch was refused whole

    def test_row_numbers_count_from_the_start_of_the_upload(self) -> None:
        ds = self.dataset("badlater", "classification")
        rows = [{"id": f"r{i}", "image": "https://example.com/x.png"} for i in range(5)]
        rows.append({"id": "r5", "image": "https://example.com/x.png", "metadata": {"label": 1}})
        with self.assertRaises(loupe.LoupeError) as caught:
            ds.upload_samples(rows, batch_size=2)
        self.assertEqual(caught.exception.errors[0]["row"], 5)
        self.assertEqual(caught.exception.errors[0]["field"], "metadata.label")
        self.assertEqual(ds.refresh().samples_count, 4)  # earlier batches stay

    def test_metadata_type_conflict(self) -> None:
        ds = self.dataset("types", "classification")
        ds.upload_samples([{"id": "a", "image": png(), "metadata": {"hour": 3}}])
        with self.assertRaises(loupe.LoupeError) as caught:
            ds.upload_samples([{"id": "b", "image": png(), "metadata": {"hour": "three"}}])
        self.assertIn("row 0 (id b), metadata.hour: expected a numeric value", str(caught.exception))

    def test_missing_local_file_is_reported_before_sending(self) -> None:
        ds = self.dataset("nofile", "classification")
        with self.assertRaises(loupe.LoupeInputError) as caught:
            ds.upload_samples([{"id": "x", "image": str(self.tmp / "nope.png")}])
        self.assertEqual(caught.exception.errors[0]["field"], "image")
        self.assertIn("nope.png", str(caught.exception))

    def test_nan_metadata_becomes_missing(self) -> None:
        ds = self.dataset("nan", "classification")
        result = ds.upload_samples(
            [{"id": "a", "image": png(), "metadata": {"score": float("nan"), "n": 1.0}}]
        )
        self.assertEqual(result["created"], 1)


if __name__ == "__main__":
    unittest.main()
