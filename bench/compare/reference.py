"""The reference side of bench/compare: the same data through numpy, pandas, faiss, scikit-learn,
umap-learn or pycocotools, timed the same way (p50 of repeated runs after one warm-up, wall and
process CPU time). Called by run.ts as `python3 reference.py CASE DIR`: reads DIR/spec.json and
the raw little-endian arrays beside it, writes its answers into DIR and prints one JSON object.
A case whose library does not import prints {"missing": "<module>"}.
"""

import contextlib
import io
import json
import os
import statistics
import sys
import time

CASE, DIR = sys.argv[1], sys.argv[2]
with open(os.path.join(DIR, "spec.json")) as f:
    SPEC = json.load(f)


def path(name):
    return os.path.join(DIR, name)


def timed(fn, runs, warm=True):
    """p50 wall and CPU milliseconds of `runs` calls (after one warm-up call), and the last result."""
    result = fn() if warm else None
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return {"wall_ms": statistics.median(walls), "cpu_ms": statistics.median(cpus)}, result


def load(name, dtype, shape=None):
    import numpy as np

    array = np.fromfile(path(name), dtype=dtype)
    return array.reshape(shape) if shape else array


def explore_frame():
    """The explorer's columns as a DataFrame: floats with NaN, dictionary fields as Categorical."""
    import numpy as np
    import pandas as pd

    columns = {}
    for name, column in SPEC["columns"].items():
        if column["type"] in ("numeric", "timestamp"):
            columns[name] = load(name + ".f64", np.float64)
        else:
            codes = load(name + ".i32", np.int32)
            categories = [False, True] if column["type"] == "boolean" else column["categories"]
            columns[name] = pd.Categorical.from_codes(codes, categories=categories)
    return pd.DataFrame(columns)


def explore_mask(df):
    f = SPEC["filter"]
    return (
        (df[f["numeric"]] >= f["min"])
        & df[f["string"]].isin(f["values"])
        & ~(df[f["boolean"]] == True)  # noqa: E712 -- elementwise, missing stays False
    )


def case_filter():
    import numpy as np
    import pandas as pd

    df = explore_frame()
    times, mask = timed(lambda: explore_mask(df), SPEC["runs"])
    np.packbits(mask.to_numpy(), bitorder="little").tofile(path("mask.ref"))

    # The same by hand in numpy, on the raw columns: a lookup table over the codes instead of isin.
    f = SPEC["filter"]
    values = load(f["numeric"] + ".f64", np.float64)
    codes = load(f["string"] + ".i32", np.int32)
    flags = load(f["boolean"] + ".i32", np.int32)
    categories = SPEC["columns"][f["string"]]["categories"]
    wanted = np.zeros(len(categories) + 1, dtype=bool)  # slot 0: the missing code −1
    for value in f["values"]:
        if value in categories:
            wanted[categories.index(value) + 1] = True
    numpy_times, by_hand = timed(
        lambda: (values >= f["min"]) & wanted[codes + 1] & (flags != 1), SPEC["runs"]
    )
    return {
        "library": "pandas " + pd.__version__,
        **times,
        "count": int(mask.sum()),
        "numpy": {
            "library": "numpy " + np.__version__ + ", by hand (lookup table over the codes)",
            **numpy_times,
            "same": bool(np.array_equal(by_hand, mask.to_numpy())),
        },
    }


def case_query():
    import numpy as np
    import pandas as pd

    df = explore_frame()
    out = {"library": "pandas " + pd.__version__, "sorts": []}
    for s, sort in enumerate(SPEC["sorts"]):
        names = [entry["name"] for entry in sort]
        ascending = [entry["direction"] == "ascending" for entry in sort]

        def query():
            selected = df[explore_mask(df)]
            return selected.sort_values(names, ascending=ascending, na_position="last").index

        times, index = timed(query, SPEC["runs"])
        index.to_numpy().astype(np.uint32).tofile(path(f"order-{s}.ref"))
        out["sorts"].append(times)
    return out


def case_histogram():
    import numpy as np

    values = load(SPEC["field"] + ".f64", np.float64)
    split = load("split.i32", np.int32)
    mask = np.unpackbits(load("rows.u8", np.uint8), bitorder="little", count=len(values)).view(bool)
    bins, splits = SPEC["bins"], SPEC["splits"]

    def counts():
        x = values[mask]
        s = split[mask]
        finite = np.isfinite(x)
        x, s = x[finite], s[finite]
        edges = np.histogram_bin_edges(x, bins=bins)
        return np.stack([np.histogram(x[s == k], bins=edges)[0] for k in range(splits)], axis=1)

    times, result = timed(counts, SPEC["runs"])
    return {"library": "numpy " + np.__version__, **times, "counts": result.tolist()}


def case_knn():
    import faiss
    import numpy as np

    faiss.omp_set_num_threads(1)  # Loupe's exact search runs on one thread
    n, d, k = SPEC["n"], SPEC["d"], SPEC["k"]
    data = load("vectors.f32", np.float32, (n, d))
    queries = load("queries.f32", np.float32, (-1, d))
    if SPEC["metric"] == "cosine":
        data = data / np.maximum(np.linalg.norm(data, axis=1, keepdims=True), 1e-30)
        queries = queries / np.maximum(np.linalg.norm(queries, axis=1, keepdims=True), 1e-30)
        index = faiss.IndexFlatIP(d)
    else:
        index = faiss.IndexFlatL2(d)
    index.add(data)
    ids, walls, cpus = [], [], []
    index.search(queries[:1], k)  # warm-up
    for q in range(len(queries)):
        wall, cpu = time.perf_counter(), time.process_time()
        _, found = index.search(queries[q : q + 1], k)
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
        ids.append(found[0])
    np.array(ids, dtype=np.uint32).tofile(path("knn.ref"))
    return {
        "library": "faiss " + faiss.__version__ + " IndexFlat, one thread, one query at a time",
        "wall_ms": statistics.median(walls),
        "cpu_ms": statistics.median(cpus),
    }


def case_ann():
    import faiss
    import numpy as np

    n, d, k = SPEC["n"], SPEC["d"], SPEC["k"]
    data = load("vectors.f32", np.float32, (n, d))
    queries = load("queries.f32", np.float32, (-1, d))
    data = data / np.maximum(np.linalg.norm(data, axis=1, keepdims=True), 1e-30)
    queries = queries / np.maximum(np.linalg.norm(queries, axis=1, keepdims=True), 1e-30)
    index = faiss.IndexHNSWFlat(d, SPEC["connectivity"], faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = SPEC["expansion_add"]
    index.hnsw.efSearch = SPEC["expansion_search"]
    build, _ = timed(lambda: index.add(data), 1, warm=False)
    faiss.omp_set_num_threads(1)
    ids, walls, cpus = [], [], []
    index.search(queries[:1], k)
    for q in range(len(queries)):
        wall, cpu = time.perf_counter(), time.process_time()
        _, found = index.search(queries[q : q + 1], k)
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
        ids.append(found[0])
    np.array(ids, dtype=np.int64).astype(np.uint32).tofile(path("ann.ref"))
    return {
        "library": f"faiss {faiss.__version__} IndexHNSWFlat (M {SPEC['connectivity']}, "
        f"efConstruction {SPEC['expansion_add']}, efSearch {SPEC['expansion_search']})",
        "build_wall_ms": build["wall_ms"],
        "build_cpu_ms": build["cpu_ms"],
        "wall_ms": statistics.median(walls),
        "cpu_ms": statistics.median(cpus),
    }


def case_pca():
    import numpy as np
    import sklearn
    from sklearn.decomposition import PCA

    n, d = SPEC["n"], SPEC["d"]
    data = load("vectors.f32", np.float32, (n, d))
    model = None

    def fit():
        nonlocal model
        model = PCA(n_components=SPEC["components"], svd_solver=SPEC["solver"])
        return model.fit_transform(data)

    times, _ = timed(fit, SPEC["runs"], warm=False)
    np.asarray(model.components_, dtype=np.float64).tofile(path("components.ref"))
    solver = getattr(model, "_fit_svd_solver", SPEC["solver"])
    return {
        "library": f"scikit-learn {sklearn.__version__} PCA(svd_solver='{SPEC['solver']}'), ran {solver}",
        **times,
        "explained_variance_ratio": model.explained_variance_ratio_.tolist(),
    }


def case_pca_wide():
    """PCA at high dimension: the float64 reference (the top `keep` of eigh of the sample
    covariance), then each solver and k, fit and transform, p50 of `runs` after one warm-up fit."""
    import numpy as np
    import sklearn
    from sklearn.decomposition import PCA

    n, d, ks, keep = SPEC["n"], SPEC["d"], SPEC["components"], SPEC["keep"]
    data = load("vectors.f32", np.float32, (n, d))
    centred = data.astype(np.float64)
    centred -= centred.mean(axis=0)
    values, vectors = np.linalg.eigh(centred.T @ centred / (n - 1))
    del centred
    np.ascontiguousarray(vectors[:, ::-1][:, :keep].T).tofile(path("reference.f64"))
    PCA(n_components=2, random_state=0).fit_transform(data)
    runs = []
    for k in ks:
        for solver in SPEC["solvers"]:
            model = None

            def fit():
                nonlocal model
                model = PCA(n_components=k, svd_solver=solver, random_state=0)
                return model.fit_transform(data)

            times, _ = timed(fit, SPEC["runs"], warm=False)
            components = np.asarray(model.components_, dtype=np.float64)
            components.tofile(path(f"components-{k}-{solver}.f64"))
            runs.append(
                {
                    "k": k,
                    "solver": solver,
                    "ran": getattr(model, "_fit_svd_solver", solver),
                    "explained_variance": model.explained_variance_.tolist(),
                    **times,
                }
            )
    return {
        "library": f"scikit-learn {sklearn.__version__} (numpy {np.__version__})",
        "runs": runs,
        "reference_variance": values[::-1][:keep].tolist(),
    }


def case_umap():
    import numpy as np
    import umap

    n, d = SPEC["n"], SPEC["d"]
    data = load("vectors.f32", np.float32, (n, d))
    layout = None

    def fit():
        nonlocal layout
        layout = umap.UMAP(n_neighbors=15, min_dist=0.1, random_state=SPEC["seed"]).fit_transform(data)

    times, _ = timed(fit, 1, warm=False)
    np.asarray(layout, dtype=np.float32).tofile(path("layout.ref"))
    return {"library": "umap-learn " + umap.__version__, **times}


def case_coco():
    from importlib.metadata import version

    import numpy as np
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    def evaluate():
        with contextlib.redirect_stdout(io.StringIO()):
            gt = COCO(path("gt.json"))
            dt = gt.loadRes(path("dt.json"))
            evaluation = COCOeval(gt, dt, SPEC["iou_type"])
            evaluation.evaluate()
            evaluation.accumulate()
            evaluation.summarize()
        return evaluation.stats

    times, stats = timed(evaluate, SPEC["runs"], warm=False)
    return {
        "library": f"pycocotools {version('pycocotools')} (numpy {np.__version__})",
        **times,
        "stats": [float(s) for s in stats],
    }


MODULES = {
    "filter": "pandas",
    "query": "pandas",
    "histogram": "numpy",
    "knn": "faiss",
    "ann": "faiss",
    "pca": "sklearn",
    "pca_wide": "sklearn",
    "umap": "umap",
    "coco": "pycocotools",
}

try:
    __import__(MODULES[CASE])
except ImportError:
    print(json.dumps({"missing": MODULES[CASE]}))
    sys.exit(0)
print(json.dumps(globals()["case_" + CASE]()))
