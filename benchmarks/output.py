"""Output and memory (issue 27 item 7), against the baselines they replaced, in one process.

    python benchmarks/output.py [--quick] [--out benchmarks/results-output.md]

1. The CSV writer (``nsfric.io.csv_text``) against the per-cell writer it replaced
   (``repr(float(v))`` of every cell, every row through the :mod:`csv` module), on a
   table of ``--rows`` rows (10^5; 10^3 with ``--quick``): real columns only, and real
   columns beside text columns (a sweep.csv's ``law`` and ``failure``).  The bytes are
   checked equal.
2. The sweep point cache: ``nsfric.sweep`` of a cheap point function over ``--points``
   points (10^4; 200 with ``--quick``) without a cache, with the chunked cache (cold,
   then warm), and with the one-file-per-point store it replaced (each entry a
   :mod:`nsfric.cache_store` file ``<key[:2]>/<key>.json``, read and written per point,
   as before, with the specification's text where it had the dict: if anything a little
   faster than it was; put in place of the chunked cache in the same process):
   microseconds per point, files and bytes on disk.
3. A batch's memory: ``nsfric.simulate`` of sliding plates (C-SDS, Heun, ``dt = 1e-3``,
   ``t_end = 1``) over ``--members`` members (10^4; 200 with ``--quick``) with
   ``store="all"``, ``"final"`` and ``100``: the bytes of ``sol.y`` and the peak of
   the memory traced (:mod:`tracemalloc`).

Times are CPU time (``time.process_time``, file-system time included), the best of
``--repeat`` runs; only ratios are meaningful on a shared machine, and no timing is
asserted anywhere (``--quick`` is the CI smoke test).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import tracemalloc

import numpy as np

import nsfric
from nsfric import cache_store
from nsfric.io import csv_text
from nsfric.study import cache as point_cache


def _oracle():
    """The CSV writer before (each cell formatted alone, every row through the csv
    module): the oracle of ``tests/test_csv_writer.py``, loaded from there."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "test_csv_writer.py")
    spec = importlib.util.spec_from_file_location("csv_writer_oracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.per_cell


per_cell = _oracle()


def best(fn, repeat):
    out = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        out.append(time.process_time() - t)
    return min(out)


def bench_csv(rows: int, repeat: int) -> dict:
    rng = np.random.default_rng(0)
    real = {"t": np.linspace(0, 1, rows), "x": rng.standard_normal(rows), "v": 1e-7 * rng.standard_normal(rows),
            "F": rng.standard_normal(rows)}
    mixed = {**real, "law": np.array(["c-sds", "d-sds"] * (rows // 2) + ["c-sds"] * (rows % 2)),
             "failure": np.array([""] * rows)}
    res = {}
    for name, cols in (("real columns", real), ("real and text columns", mixed)):
        assert csv_text(cols) == per_cell(cols)
        old, new = best(lambda: per_cell(cols), repeat), best(lambda: csv_text(cols), repeat)
        res[name] = {"per_cell_ms": 1e3 * old, "csv_text_ms": 1e3 * new, "ratio": old / new}
    return res


class OneFilePerPoint(point_cache.PointCache):
    """The point cache before the chunks: one checksummed file per point."""

    def __init__(self, root):
        self.root = os.path.abspath(root)

    def path(self, key):
        return os.path.join(self.root, key[:2], key + ".json")

    def load(self, key, spec=None):
        got = cache_store.read(self.path(key), self.KIND, spec, lambda r: True)
        got = None if got is None else point_cache._decode(got)
        return got if point_cache._valid_result(got) else None

    def store(self, key, result, spec=None):
        return cache_store.write(self.path(key), self.KIND, spec, point_cache._encode(result), root=self.root)

    def want(self, keys):
        pass

    def close(self):
        return True


def double(point):
    return {"y": 2.0 * point["x"]}


def _disk(root):
    files = [os.path.join(d, n) for d, _, names in os.walk(root) for n in names]
    return len(files), sum(os.stat(f).st_blocks * 512 for f in files)


def bench_cache(points: int, repeat: int) -> dict:
    sweep_module = sys.modules["nsfric.study.sweep"]

    grid = {"x": [float(i) for i in range(points)]}
    run = lambda **kw: nsfric.sweep(double, grid=grid, observables=["y"], **kw)  # noqa: E731
    run()  # warm-up
    res = {"no cache": {"us_per_point": 1e6 * best(run, repeat) / points}}
    for name, store in (("chunks (now)", point_cache.PointCache), ("one file per point (before)", OneFilePerPoint)):
        cold, warm = [], []
        for _ in range(repeat):
            root = tempfile.mkdtemp(prefix="nsfric-bench-cache-")
            try:
                sweep_module.PointCache = store
                cold.append(best(lambda: run(cache_dir=root), 1))
                warm.append(best(lambda: run(cache_dir=root), 1))
                files, size = _disk(root)
            finally:
                sweep_module.PointCache = point_cache.PointCache
                shutil.rmtree(root, ignore_errors=True)
        res[name] = {"cold_us_per_point": 1e6 * min(cold) / points, "warm_us_per_point": 1e6 * min(warm) / points,
                     "files": files, "MiB": size / 2 ** 20}
    return res


def bench_batch(members: int) -> dict:
    v0 = np.linspace(0.5, 6.0, members)
    args = ("sliding-plates", "c-sds", "heun", 1e-3, 1.0)
    nsfric.simulate(*args, params={"v0": v0[:3]})  # compiled once
    res = {}
    for store in ("all", "final", 100):
        tracemalloc.start()
        t = time.process_time()
        sol = nsfric.simulate(*args, params={"v0": v0}, store=store)
        cpu = time.process_time() - t
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        res[repr(store)] = {"y_MiB": sol.y.nbytes / 2 ** 20, "peak_MiB": peak / 2 ** 20, "seconds": cpu,
                            "backend": sol.info["backend"]}
        del sol
    return res


def report(res: dict) -> str:
    out = ["# Output and memory (benchmarks/output.py)", "",
           f"CPU time, best of {res['repeat']}; load average at the start {res['load']:.2f}.", "",
           f"## CSV writer, {res['rows']} rows", "", "| table | per-cell writer (before) | csv_text | ratio |",
           "| --- | --- | --- | --- |"]
    for name, r in res["csv"].items():
        out.append(f"| {name} | {r['per_cell_ms']:.1f} ms | {r['csv_text_ms']:.1f} ms | {r['ratio']:.2f} |")
    out += ["", f"## Sweep point cache, {res['points']} points of a cheap point function", "",
            "| store | cold us/point | warm us/point | files | MiB on disk |", "| --- | --- | --- | --- | --- |",
            f"| no cache | {res['cache']['no cache']['us_per_point']:.1f} | - | 0 | 0 |"]
    for name, r in res["cache"].items():
        if name != "no cache":
            out.append(f"| {name} | {r['cold_us_per_point']:.1f} | {r['warm_us_per_point']:.1f} | {r['files']} | "
                       f"{r['MiB']:.1f} |")
    out += ["", f"## Batch memory, {res['members']} members x 1,000 Heun steps", "",
            "| store | rows kept | peak traced | CPU | path |", "| --- | --- | --- | --- | --- |"]
    for name, r in res["batch"].items():
        out.append(f"| {name} | {r['y_MiB']:.2f} MiB | {r['peak_MiB']:.1f} MiB | {r['seconds']:.2f} s | "
                   f"{r['backend']} |")
    return "\n".join(out) + "\n"


def bench(rows, points, members, repeat) -> dict:
    return {"rows": rows, "points": points, "members": members, "repeat": repeat, "load": os.getloadavg()[0],
            "csv": bench_csv(rows, repeat), "cache": bench_cache(points, repeat), "batch": bench_batch(members)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--out", help="write the Markdown table here too")
    a = p.parse_args(argv)
    res = bench(1_000, 200, 200, 1) if a.quick else bench(100_000, 10_000, 10_000, a.repeat)
    text = report(res)
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
