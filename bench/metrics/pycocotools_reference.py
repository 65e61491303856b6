"""Runs pycocotools' COCOeval on the metrics benchmark data, to compare with `loupe eval coco`.

Needs pycocotools (not a dependency of Loupe). After `bench/metrics/run.ts` has generated the
data in .bench-data/metrics/:
    python3 bench/metrics/pycocotools_reference.py .bench-data/metrics/bbox-gt.json .bench-data/metrics/bbox-dt.json bbox
    npx loupe eval coco --gt .bench-data/metrics/bbox-gt.json --dt .bench-data/metrics/bbox-dt.json --iou-type bbox
Prints the seconds taken (load + evaluate + accumulate + summarize) and the 12 stats as JSON.
"""

import contextlib
import io
import json
import sys
import time

from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

gt_path, dt_path, iou_type = sys.argv[1:4]
start = time.time()
with contextlib.redirect_stdout(io.StringIO()):
    coco_gt = COCO(gt_path)
    coco_dt = coco_gt.loadRes(dt_path)
    evaluation = COCOeval(coco_gt, coco_dt, iou_type)
    evaluation.evaluate()
    evaluation.accumulate()
    evaluation.summarize()
print(json.dumps({"seconds": time.time() - start, "stats": [float(s) for s in evaluation.stats]}))
