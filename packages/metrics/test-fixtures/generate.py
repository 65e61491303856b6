"""Generates the reference fixtures of packages/metrics from the reference libraries themselves.

Random cases (seeded) are written with the answers of pycocotools (COCOeval and the mask API) and
scikit-learn, so the TypeScript tests compare against numbers nobody tuned the code to. The tests
only read the JSON; they never need Python.

How the fixtures in this folder were made (Debian bookworm, /usr/bin/python3 3.11):
    apt-get install python3-sklearn cython3            # scikit-learn 1.2.1, numpy 1.24.2
    # pycocotools built from github.com/cocodataset/cocoapi (commit 8c9bcc3) in a scratch dir:
    cd cocoapi/PythonAPI && python3 setup.py build_ext --inplace
    # numpy >= 1.24 removed the alias np.float; cocoeval.py line 378-379 use it, so replace
    # `np.float` by `float` there (the same type; no change in behaviour).
    PYCOCOTOOLS_PATH=cocoapi/PythonAPI /usr/bin/python3 generate.py
"""

import contextlib
import io
import json
import os
import random
import sys

sys.path.insert(0, os.environ.get("PYCOCOTOOLS_PATH", "/tmp/cocoapi/PythonAPI"))

import numpy as np  # noqa: E402
from pycocotools import mask as mask_utils  # noqa: E402
from pycocotools.coco import COCO  # noqa: E402
from pycocotools.cocoeval import COCOeval  # noqa: E402
from sklearn import metrics as skm  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def plain(o):
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    raise TypeError(type(o))


def write(name, data):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(data, f, separators=(",", ":"), default=plain)
        f.write("\n")


def random_box(rng, w, h):
    # Sizes from a few pixels to most of the image, so every COCO area range is exercised.
    bw = max(1.0, min(w - 1, rng.choice([rng.uniform(2, 30), rng.uniform(30, 100), rng.uniform(100, 250)])))
    bh = max(1.0, min(h - 1, bw * rng.uniform(0.5, 2.0)))
    x = rng.uniform(0, max(0.0, w - bw))
    y = rng.uniform(0, max(0.0, h - bh))
    return [round(x, 2), round(y, 2), round(bw, 2), round(bh, 2)]


def jitter_box(rng, box, amount):
    x, y, bw, bh = box
    return [
        round(x + rng.uniform(-amount, amount) * bw, 2),
        round(y + rng.uniform(-amount, amount) * bh, 2),
        round(max(1.0, bw * (1 + rng.uniform(-amount, amount))), 2),
        round(max(1.0, bh * (1 + rng.uniform(-amount, amount))), 2),
    ]


def polygon_in_box(rng, box):
    x, y, bw, bh = box
    cx, cy = x + bw / 2, y + bh / 2
    n = rng.randint(3, 9)
    points = []
    for k in range(n):
        angle = 2 * np.pi * k / n + rng.uniform(-0.2, 0.2)
        r = rng.uniform(0.5, 1.0)
        points += [round(cx + np.cos(angle) * r * bw / 2, 2), round(cy + np.sin(angle) * r * bh / 2, 2)]
    return points


def coco_case(seed, iou_type, num_images, num_cats, crowd_rate):
    rng = random.Random(seed)
    images, annotations, results = [], [], []
    categories = [{"id": c + 1, "name": f"class{c + 1}"} for c in range(num_cats)]
    ann_id = 1
    for i in range(num_images):
        w, h = rng.choice([(320, 240), (200, 300), (256, 256)])
        image_id = 1000 + 3 * i  # not contiguous, to catch index/id confusion
        images.append({"id": image_id, "width": w, "height": h})
        for _ in range(rng.randint(0, 8)):
            cat = rng.randint(1, num_cats - 1)  # the last category never has ground truth
            box = random_box(rng, w, h)
            crowd = 1 if rng.random() < crowd_rate else 0
            ann = {"id": ann_id, "image_id": image_id, "category_id": cat, "iscrowd": crowd, "bbox": box}
            ann_id += 1
            if iou_type == "segm":
                if crowd:
                    poly = [polygon_in_box(rng, box)]
                    rle = mask_utils.merge(mask_utils.frPyObjects(poly, h, w))
                    m = mask_utils.decode(rle)
                    counts = []
                    flat = m.flatten(order="F")
                    prev, run = 0, 0
                    for v in flat:
                        if v != prev:
                            counts.append(run)
                            run, prev = 0, v
                        run += 1
                    counts.append(run)
                    ann["segmentation"] = {"size": [h, w], "counts": [int(c) for c in counts]}
                else:
                    polys = [polygon_in_box(rng, box)]
                    if rng.random() < 0.2:
                        polys.append(polygon_in_box(rng, jitter_box(rng, box, 0.5)))
                    ann["segmentation"] = polys
                rle = mask_utils.frPyObjects(ann["segmentation"], h, w)
                if isinstance(rle, list):
                    rle = mask_utils.merge(rle)
                ann["area"] = float(mask_utils.area(rle))
            else:
                ann["area"] = round(box[2] * box[3] * rng.uniform(0.6, 1.0), 2)
            annotations.append(ann)
            # Detections near the ground truth, sometimes with the wrong category.
            for _ in range(rng.choice([0, 1, 1, 2])):
                det_cat = cat if rng.random() < 0.85 else rng.randint(1, num_cats)
                amount = rng.choice([0.05, 0.15, 0.3])
                det_box = jitter_box(rng, box, amount)
                base = ann["segmentation"][0] if iou_type == "segm" and not ann["iscrowd"] else None
                results.append(make_det(rng, image_id, det_cat, det_box, iou_type, h, w, base, amount))
        for _ in range(rng.randint(0, 4)):  # background detections
            results.append(make_det(rng, image_id, rng.randint(1, num_cats), random_box(rng, w, h), iou_type, h, w))
    gt = {"images": images, "annotations": annotations, "categories": categories}
    return gt, results


def make_det(rng, image_id, cat, box, iou_type, h, w, base=None, amount=0.0):
    # Scores on a coarse grid, so ties across images and within an image occur.
    score = round(rng.choice([rng.random(), round(rng.random(), 1)]), 3)
    det = {"image_id": image_id, "category_id": cat, "score": score}
    if iou_type == "bbox":
        det["bbox"] = box
    else:
        x, y, bw, bh = box
        x, y = max(0, x), max(0, y)
        if base is not None:
            # Near a ground-truth polygon: each vertex moved by a fraction of the box size.
            poly = [round(v + rng.uniform(-amount, amount) * (bw if k % 2 == 0 else bh), 2) for k, v in enumerate(base)]
        else:
            poly = polygon_in_box(rng, [x, y, bw, bh])
        rle = mask_utils.merge(mask_utils.frPyObjects([poly], h, w))
        det["segmentation"] = {"size": rle["size"], "counts": rle["counts"].decode("ascii")}
    return det


def run_cocoeval(gt, results, iou_type):
    with contextlib.redirect_stdout(io.StringIO()):
        coco_gt = COCO()
        coco_gt.dataset = json.loads(json.dumps(gt))
        coco_gt.createIndex()
        coco_dt = coco_gt.loadRes(json.loads(json.dumps(results)))
        ev = COCOeval(coco_gt, coco_dt, iou_type)
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    precision = ev.eval["precision"]
    recall = ev.eval["recall"]
    per_category = []
    for k, cat_id in enumerate(ev.params.catIds):
        def mean_valid(a):
            a = a[a > -1]
            return float(np.mean(a)) if a.size else -1.0

        per_category.append(
            {
                "category_id": cat_id,
                "ap": mean_valid(precision[:, :, k, 0, 2]),
                "ap50": mean_valid(precision[0, :, k, 0, 2]),
                "ap75": mean_valid(precision[5, :, k, 0, 2]),
                "ar100": mean_valid(recall[:, k, 0, 2]),
            }
        )
    return {"stats": [float(s) for s in ev.stats], "per_category": per_category}


def coco_fixtures():
    cases = []
    for seed, iou_type, n_img, n_cat, crowd in [
        (1, "bbox", 40, 6, 0.1),
        (2, "bbox", 25, 3, 0.3),
        (3, "segm", 30, 5, 0.1),
        (4, "segm", 20, 3, 0.25),
    ]:
        gt, results = coco_case(seed, iou_type, n_img, n_cat, crowd)
        cases.append({"name": f"seed{seed}-{iou_type}", "iou_type": iou_type, "gt": gt, "dt": results,
                      "expected": run_cocoeval(gt, results, iou_type)})
    write("coco-cases.json", cases)


def mask_fixtures():
    rng = random.Random(7)
    polygons = []
    for _ in range(40):
        h, w = rng.randint(5, 60), rng.randint(5, 60)
        n = rng.randint(3, 8)
        xy = [round(rng.uniform(-3, w + 3), rng.choice([0, 1, 2])) if k % 2 == 0 else round(rng.uniform(-3, h + 3), rng.choice([0, 1, 2])) for k in range(2 * n)]
        rle = mask_utils.frPyObjects([xy], h, w)[0]
        polygons.append({"h": h, "w": w, "xy": xy, "counts": rle["counts"].decode("ascii"),
                         "area": int(mask_utils.area(rle)), "bbox": [float(v) for v in mask_utils.toBbox(rle)]})
    boxes = []
    for _ in range(20):
        h, w = rng.randint(5, 60), rng.randint(5, 60)
        bb = [round(rng.uniform(-2, w), 1), round(rng.uniform(-2, h), 1), round(rng.uniform(0, w), 1), round(rng.uniform(0, h), 1)]
        rle = mask_utils.frPyObjects(np.array([bb], dtype=np.float64), h, w)[0]
        boxes.append({"h": h, "w": w, "bbox": bb, "counts": rle["counts"].decode("ascii")})
    pairs = []
    for _ in range(30):
        h, w = rng.randint(3, 30), rng.randint(3, 30)
        a = (np.array([[rng.random() < 0.4 for _ in range(w)] for _ in range(h)], dtype=np.uint8))
        b = (np.array([[rng.random() < 0.4 for _ in range(w)] for _ in range(h)], dtype=np.uint8))
        ra = mask_utils.encode(np.asfortranarray(a))
        rb = mask_utils.encode(np.asfortranarray(b))
        crowd = rng.random() < 0.3
        pairs.append({
            "h": h, "w": w,
            "a_rows": a.flatten().tolist(),
            "b_rows": b.flatten().tolist(),
            "a_counts": ra["counts"].decode("ascii"),
            "b_counts": rb["counts"].decode("ascii"),
            "crowd": crowd,
            "iou": float(mask_utils.iou([ra], [rb], [int(crowd)])[0][0]),
            "union": mask_utils.merge([ra, rb], intersect=False)["counts"].decode("ascii"),
            "intersection": mask_utils.merge([ra, rb], intersect=True)["counts"].decode("ascii"),
            "bbox_a": [float(v) for v in mask_utils.toBbox(ra)],
        })
    box_ious = []
    for _ in range(30):
        d = [rng.uniform(0, 50), rng.uniform(0, 50), rng.uniform(0, 40), rng.uniform(0, 40)]
        g = [rng.uniform(0, 50), rng.uniform(0, 50), rng.uniform(0, 40), rng.uniform(0, 40)]
        crowd = rng.random() < 0.3
        box_ious.append({"dt": d, "gt": g, "crowd": crowd,
                         "iou": float(mask_utils.iou([d], [g], [int(crowd)])[0][0])})
    write("mask-cases.json", {"polygons": polygons, "boxes": boxes, "pairs": pairs, "box_ious": box_ious})


def sklearn_fixtures():
    rng = np.random.default_rng(11)
    cases = []
    for n, k, noise in [(60, 2, 0.3), (150, 2, 2.0), (200, 3, 0.5), (500, 5, 0.6), (300, 7, 0.9), (40, 4, 0.7)]:
        y_true = rng.integers(0, k, n)
        logits = rng.normal(0, 1, (n, k))
        logits[np.arange(n), y_true] += 1.0 / noise
        # Coarse scores, so ties occur (they matter for ROC AUC).
        probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        probs = np.round(probs, 2)
        probs = probs / probs.sum(axis=1, keepdims=True)
        y_pred = probs.argmax(axis=1)
        if k >= 5:
            y_pred[y_pred == k - 1] = 0  # a class that is never predicted: zero division
        labels = sorted(set(y_true.tolist()) | set(y_pred.tolist()))
        case = {"k": k, "y_true": y_true.tolist(), "y_pred": y_pred.tolist(), "scores": probs.tolist()}
        case["accuracy"] = float(skm.accuracy_score(y_true, y_pred))
        case["confusion"] = skm.confusion_matrix(y_true, y_pred, labels=list(range(k))).tolist()
        for avg in ["macro", "micro", "weighted"]:
            p, r, f, _ = skm.precision_recall_fscore_support(y_true, y_pred, average=avg, zero_division=0)
            case[avg] = {"precision": float(p), "recall": float(r), "f1": float(f)}
        p, r, f, s = skm.precision_recall_fscore_support(y_true, y_pred, labels=list(range(k)), average=None, zero_division=0)
        case["per_class"] = {"precision": p.tolist(), "recall": r.tolist(), "f1": f.tolist(), "support": s.tolist()}
        case["labels_in_average"] = labels
        if k == 2:
            case["roc_auc"] = float(skm.roc_auc_score(y_true, probs[:, 1]))
            case["log_loss"] = float(skm.log_loss(y_true, probs[:, 1]))
            fpr, tpr, _ = skm.roc_curve(y_true, probs[:, 1], drop_intermediate=False)
            case["roc_fpr"] = fpr.tolist()
            case["roc_tpr"] = tpr.tolist()
        else:
            case["roc_auc_ovr_macro"] = float(skm.roc_auc_score(y_true, probs, multi_class="ovr", average="macro"))
        case["roc_auc_ovr_per_class"] = [float(skm.roc_auc_score(y_true == c, probs[:, c])) for c in range(k)]
        cases.append(case)
    regression = []
    for n, names in [(50, ["age"]), (120, ["x", "y", "z"])]:
        y_true = rng.normal(10, 5, (n, len(names)))
        y_pred = y_true + rng.normal(0, 2, (n, len(names)))
        regression.append({
            "names": names, "y_true": y_true.tolist(), "y_pred": y_pred.tolist(),
            "mse": skm.mean_squared_error(y_true, y_pred, multioutput="raw_values").tolist(),
            "mae": skm.mean_absolute_error(y_true, y_pred, multioutput="raw_values").tolist(),
            "mse_overall": float(skm.mean_squared_error(y_true, y_pred)),
            "mae_overall": float(skm.mean_absolute_error(y_true, y_pred)),
        })
    write("sklearn-cases.json", {"classification": cases, "regression": regression})


if __name__ == "__main__":
    coco_fixtures()
    mask_fixtures()
    sklearn_fixtures()
    print("fixtures written to", HERE)
