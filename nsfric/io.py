"""Atomic outputs with provenance: nothing partial is ever left on disk."""
from __future__ import annotations

import csv
import io
import json
import os
import platform
import tempfile
from contextlib import contextmanager

import numpy as np


def versions() -> dict:
    """Versions of nsfric and the numerical stack, for provenance."""
    import scipy
    import sympy

    from . import __version__

    out = {"nsfric": __version__, "python": platform.python_version(), "numpy": np.__version__,
           "scipy": scipy.__version__, "sympy": sympy.__version__}
    try:
        from importlib.metadata import version

        out["assimulo"] = version("assimulo-testing")
    except Exception:  # pragma: no cover - metadata missing
        out["assimulo"] = "unknown"
    return out


@contextmanager
def atomic_files(*paths):
    """Yield temporary paths; on success move them all onto ``paths``, else delete them."""
    tmps = []
    try:
        for p in paths:
            d = os.path.dirname(os.path.abspath(p))
            os.makedirs(d, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
            os.close(fd)
            tmps.append(tmp)
        yield tmps
        for tmp, p in zip(tmps, paths):
            os.replace(tmp, p)
        tmps = []
    finally:
        for tmp in tmps:
            if os.path.exists(tmp):
                os.remove(tmp)


def csv_text(columns: dict) -> str:
    """CSV text from ordered columns (numbers written with 17 significant digits)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = list(columns)
    w.writerow(names)
    cols = [np.asarray(columns[n]) for n in names]
    for i in range(len(cols[0])):
        w.writerow([repr(float(c[i])) if np.issubdtype(c.dtype, np.number) else str(c[i]) for c in cols])
    return buf.getvalue()


def write_text(path: str, text: str):
    with atomic_files(path) as (tmp,):
        with open(tmp, "w") as f:
            f.write(text)


def write_json(path: str, obj):
    write_text(path, json.dumps(obj, indent=2, default=_default, ensure_ascii=False) + "\n")


def _default(o):
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serialisable: {type(o)}")


def write_csv_with_sidecar(path: str, columns: dict, meta: dict):
    """Write ``path`` (CSV) and ``path`` with ``.json`` suffix atomically, together."""
    side = os.path.splitext(path)[0] + ".json"
    with atomic_files(path, side) as (t1, t2):
        with open(t1, "w") as f:
            f.write(csv_text(columns))
        with open(t2, "w") as f:
            f.write(json.dumps(meta, indent=2, default=_default, ensure_ascii=False) + "\n")
    return side
