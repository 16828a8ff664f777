"""Atomic outputs with provenance: nothing partial is ever left on disk."""
from __future__ import annotations

import csv
import io
import json
import os
import math
import platform
import shutil
import tempfile
from contextlib import contextmanager

import numpy as np

from . import outputs


def versions() -> dict:
    """Versions of nsfric and the numerical stack, for provenance (SciPy's and SymPy's
    from their installed metadata: reading them imports neither)."""
    from importlib.metadata import version

    from ._version import __version__

    out = {"nsfric": __version__, "python": platform.python_version(), "numpy": np.__version__}
    for key, dist in (("scipy", "scipy"), ("sympy", "sympy"), ("assimulo", "assimulo-testing")):
        try:
            out[key] = version(dist)
        except Exception:  # pragma: no cover - metadata missing
            out[key] = "unknown"
    return out


def cache_root() -> str:
    """The root of nsfric's caches: ``$NSFRIC_CACHE_DIR``, else ``$XDG_CACHE_HOME/nsfric``,
    else ``~/.cache/nsfric`` (not created).  No output may go inside, to or above it."""
    return os.environ.get("NSFRIC_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "nsfric")


def cache_dir(kind: str) -> str:
    """The user cache folder of ``kind`` (``kernels``, ``sweep``): ``<cache_root()>/<kind>``
    (not created)."""
    return os.path.join(cache_root(), kind)


#: file systems that are not for outputs
_PSEUDO = ("/proc", "/sys", "/dev")
NAME_MAX = 255


def _nearest_existing(path: str) -> str:
    d = path
    while not os.path.lexists(d):
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return d


def check_output_path(path: str, option: str = "--out", kind: str = "file", suffix: str | None = None,
                      beside: bool = False, caches=(), expect=()):
    """Raise ValueError (naming ``option``) unless ``path`` can receive an output.

    ``kind`` is ``"file"`` (must not be an existing directory) or ``"dir"`` (must not be
    an existing non-directory).  Checked before any computation: the name's length, that
    it is not under a pseudo file system (/proc, /sys, /dev), that no ancestor is a
    regular file, that the nearest existing ancestor is a writable directory, and the
    rules of :mod:`nsfric.outputs`: a file replaces only a file nsfric wrote; a folder
    is not in or above a cache (``caches``: further cache folders), non-empty only with
    a manifest or ``beside``, with no file in the way of the outputs ``expect``.
    """
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"{option} must name a {kind}, got {path!r}")
    if suffix and not path.endswith(suffix):
        raise ValueError(f"{option} must name a {suffix} file, got {path!r}")
    full = os.path.abspath(path)
    for part in full.split(os.sep):
        if len(part.encode()) > NAME_MAX - 16:  # room for the staging prefix
            raise ValueError(f"{option}: a path component is longer than {NAME_MAX - 16} bytes")
    real = os.path.realpath(full)
    if any(real == r or real.startswith(r + os.sep) for r in _PSEUDO):
        raise ValueError(f"{option}: {path!r} lies under a pseudo file system; choose a normal folder")
    if kind == "file" and os.path.isdir(full):
        raise ValueError(f"{option}: {path!r} is a directory; give a file name")
    if kind == "dir" and os.path.lexists(full) and not os.path.isdir(full):
        raise ValueError(f"{option}: {path!r} exists and is not a directory")
    anc = _nearest_existing(os.path.dirname(full) if kind == "file" else full)
    if kind == "dir" and anc == full:
        anc_dir = full
    else:
        anc_dir = anc
    if not os.path.isdir(anc_dir):
        raise ValueError(f"{option}: {anc_dir!r} is not a directory, so {path!r} cannot be created")
    if not os.access(anc_dir, os.W_OK | os.X_OK):
        raise ValueError(f"{option}: no permission to write in {anc_dir!r}")
    if kind == "file":
        outputs.check_file(path, option)
    else:
        outputs.check_folder(path, option, beside, caches, expect)
    return path


def _publish(pairs):
    """Move every ``(tmp, target)`` into place inside a staging folder, all or nothing
    (the folder is published as a whole later: :func:`nsfric.outputs.output_folder`)."""
    backups, done = [], []
    try:
        for tmp, target in pairs:
            if os.path.isdir(target) and not os.path.isdir(tmp):
                raise IsADirectoryError(f"{target!r} is a directory")
            if os.path.lexists(target):
                bak = tempfile.mktemp(prefix=outputs.tmp_prefix(), dir=os.path.dirname(target))
                os.rename(target, bak)
                backups.append((bak, target))
            os.rename(tmp, target)
            done.append(target)
    except BaseException:
        for target in done:
            _remove(target)
        for bak, target in backups:
            if os.path.lexists(target):
                _remove(target)
            os.rename(bak, target)
        raise
    for bak, _ in backups:
        _remove(bak)


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.lexists(path):
        os.remove(path)


@contextmanager
def atomic_files(*paths):
    """Yield temporary paths; on success move them all onto ``paths`` together (all or
    nothing), else delete them (and the folders this created).  Files get the umask's
    mode.

    Outside a staging folder the paths (one folder) are published under that folder's
    manifest (:mod:`nsfric.outputs`): an existing file is replaced only if nsfric wrote
    it and it is unchanged, otherwise ValueError and nothing is written."""
    targets = [os.path.abspath(p) for p in paths]
    staged = outputs.in_stage(targets[0])
    tmps, made, ok = [], [], False
    try:
        for folder in dict.fromkeys(os.path.dirname(t) for t in targets):
            made += outputs._makedirs(folder)
            if not staged:
                outputs.remove_stale(folder)
        if not staged:
            for t in targets:
                _check_replaceable(t)
        for t in targets:
            fd, tmp = tempfile.mkstemp(prefix=outputs.tmp_prefix(), dir=os.path.dirname(t))
            os.close(fd)
            os.chmod(tmp, 0o666 & ~outputs.umask())
            tmps.append(tmp)
        yield tmps
        pairs = list(zip(tmps, targets))
        _publish(pairs) if staged else outputs.publish_files(pairs, "output")
        tmps, ok = [], True
    finally:
        for tmp in tmps:
            if os.path.lexists(tmp):
                os.remove(tmp)
        if not ok:
            outputs._rmdirs(made)


def _check_replaceable(path):
    if os.path.lexists(path) and not outputs.written_by_nsfric(path):
        raise ValueError(f"{path!r} exists and nsfric did not write it (or it was changed since); "
                         f"nothing is overwritten")


def _float_cells(column: np.ndarray) -> list:
    """``repr(float(v))`` of every value of a real numeric column, in order: the list's
    ``repr`` formats them in C (the same function), and a column of few distinct values
    (by their bits: ``-0.0`` is not ``0.0``) formats only those."""
    x = np.ascontiguousarray(column, dtype=float)
    if x.size == 0:
        return []
    bits = x.view(np.int64)
    sample = bits[::max(1, len(bits) // 64)]
    if 2 * len(np.unique(sample)) > len(sample):  # mostly distinct: formatting them all is cheaper
        return repr(x.tolist())[1:-1].split(", ")
    distinct, where = np.unique(bits, return_inverse=True)
    texts = repr(distinct.view(float).tolist())[1:-1].split(", ")
    return [texts[i] for i in where.tolist()]


def csv_text(columns: dict) -> str:
    """CSV text from ordered columns (numbers written with 17 significant digits).

    Each numeric cell is ``repr(float(value))`` (the shortest text that reads back as
    the same float), any other ``str(value)``, quoted by the :mod:`csv` module where it
    must be; columns of unequal length end with the shortest.  Rows are joined without
    the csv writer when no cell needs quoting (float texts never do; text cells are
    checked, column by column): the same bytes."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = list(columns)
    w.writerow(names)
    arrays = [np.asarray(columns[n]) for n in names]
    real = [a.ndim == 1 and (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer))
            for a in arrays]
    # (a lone text column is left to the csv writer: it quotes a row of one empty cell)
    if names and all(a.ndim == 1 for a in arrays) and (all(real) or len(names) > 1):
        rows = min(len(a) for a in arrays)
        cells = [_float_cells(a[:rows]) if ok else _text_cells(a[:rows]) for a, ok in zip(arrays, real)]
        if all(c is not None for c in cells):  # no cell needs quoting: joined as the csv writer would
            if rows:
                buf.write("\n".join(map(",".join, zip(*cells))))
                buf.write("\n")
            return buf.getvalue()
    cols = []
    for c in arrays:  # each cell as repr(float(value)) (numbers) or str(value), column by column
        cols.append(map(repr, c.astype(float).tolist()) if np.issubdtype(c.dtype, np.number) else map(str, c))
    w.writerows(zip(*cols))
    return buf.getvalue()


#: the characters that make the csv module quote a cell: the delimiter, the quote, the line
#: ends (a carriage return since Python 3.12, whatever the line terminator)
_QUOTED = (",", '"', "\n", "\r")


def _text_cells(column: np.ndarray):
    """The cells of a column that is not real numbers as the per-cell writer formats them
    (``repr(float(v))`` of other numbers, ``str(v)`` of the rest), or None when one of
    them would be quoted by the csv module (the caller then writes through it)."""
    if np.issubdtype(column.dtype, np.number):
        cells = list(map(repr, column.astype(float).tolist()))
    else:
        cells = list(map(str, column))
    joined = "\x00".join(cells)
    return None if any(q in joined for q in _QUOTED) else cells


def write_text(path: str, text: str):
    with atomic_files(path) as (tmp,):
        with open(tmp, "w") as f:
            f.write(text)


def json_text(obj) -> str:
    """Strict JSON (RFC 8259): NaN and infinities become ``null``."""
    return json.dumps(_finite(obj), indent=2, default=_default, ensure_ascii=False, allow_nan=False) + "\n"


def _finite(o):
    if isinstance(o, float) or isinstance(o, np.floating):
        return float(o) if math.isfinite(o) else None
    if isinstance(o, dict):
        return {k: _finite(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_finite(v) for v in o]
    if isinstance(o, np.ndarray):
        return _finite(o.tolist())
    return o


def write_json(path: str, obj):
    write_text(path, json_text(obj))


def _default(o):
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serialisable: {type(o)}")


def non_finite_columns(columns: dict) -> list:
    """Names of the numeric columns holding NaN or an infinity."""
    bad = []
    for name, col in columns.items():
        c = np.asarray(col)
        if np.issubdtype(c.dtype, np.number) and not np.all(np.isfinite(c)):
            bad.append(name)
    return bad


def write_csv_with_sidecar(path: str, columns: dict, meta: dict, finite: str | None = None):
    """Write ``path`` (CSV) and ``path`` with ``.json`` suffix atomically, together.

    With ``finite`` (a hint naming what to change), a non-finite number in any numeric
    column is a ValueError naming the columns and nothing is written."""
    if finite is not None:
        bad = non_finite_columns(columns)
        if bad:
            raise ValueError(f"non-finite values (inf/NaN) in column(s) {', '.join(bad)}; nothing "
                             f"written{finite}")
    from . import cache_store

    if cache_store.notes():  # a cache that could not be written was skipped: say so
        meta = {**meta, "cache": cache_store.notes()}
    side = os.path.splitext(path)[0] + ".json"
    with atomic_files(path, side) as (t1, t2):
        with open(t1, "w") as f:
            f.write(csv_text(columns))
        with open(t2, "w") as f:
            f.write(json_text(meta))
    return side
