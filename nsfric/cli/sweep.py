"""``nsfric sweep``: a parameter sweep of a case's observables, locally or on Dask.

``nsfric sweep CASE [--law L] --grid NAME=VALUES [--grid ...] [--param NAME=VALUE]
--observable NAME [--observable ...] --out DIR`` writes ``sweep.csv`` (one row per
point), ``sweep.nc`` (the labelled Dataset) and ``sweep.json`` (provenance).  ``VALUES``
is ``V1,V2,...``, ``START:STOP:NUM`` or ``logspace:A:B:NUM`` (:mod:`nsfric.study.grid`).
Where the points run: here (default), ``--jobs N`` local processes, ``--dask-local N``
a Dask ``LocalCluster`` of N single-threaded worker processes, ``--scheduler ADDRESS``
an existing Dask cluster.  Points are cached by content hash (``--cache DIR``, default
:func:`default_cache`), so an interrupted sweep resumes;
``--force`` recomputes.  Bad input: one line on stderr, exit code 2, nothing written.
"""
from __future__ import annotations

import contextlib
import logging
import os
import sys


#: the files of ``nsfric sweep --out DIR`` (:func:`nsfric.study.results.write_sweep`)
SWEEP_FILES = ("sweep.csv", "sweep.nc", "sweep.json")


def default_cache() -> str:
    """The point cache of ``nsfric sweep`` and ``nsfric run``: ``$NSFRIC_CACHE_DIR/sweep``,
    else ``$XDG_CACHE_HOME/nsfric/sweep``, else ``~/.cache/nsfric/sweep`` (beside the
    compiled kernels, :func:`nsfric.io.cache_dir`)."""
    from ..io import cache_dir

    return cache_dir("sweep")


#: the largest Dask handshake accepted by :func:`probe_scheduler` (a real one is ~100 bytes)
HANDSHAKE_LIMIT = 1 << 20


def _read_exactly(sock, n: int, deadline: float) -> bytes:
    """``n`` bytes from ``sock`` before the monotonic ``deadline`` (TimeoutError,
    ConnectionError when the peer closes)."""
    import time

    buf = b""
    while len(buf) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock.settimeout(left)
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("the connection was closed")
        buf += chunk
    return buf


def probe_scheduler(address: str, timeout: float):
    """UsageError unless a Dask scheduler answers at the TCP ``address`` within
    ``timeout`` seconds.

    A Dask listener sends its handshake first (``distributed.comm.core``: an 8-byte
    little-endian length, then the frames of a small dict naming ``python`` and
    ``pickle-protocol``).  ``distributed.Client`` reads it with no time limit (a silent
    port hangs for ever, whatever ``timeout``) and allocates whatever length the first
    8 bytes say (a web server's ``HTTP/1.1`` is 3 EiB); this probe reads it with the
    deadline and a size limit.  Addresses of other schemes (``tls://``, ``ucx://``) are
    left to Dask."""
    import socket
    import struct
    import time

    from ._common import UsageError

    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        return
    host, _, port = rest.rstrip("/").rpartition(":")
    try:
        port = int(port)
    except ValueError:
        raise UsageError(f"--scheduler {address}: expected tcp://HOST:PORT") from None
    host = host.strip("[]") or "127.0.0.1"
    deadline = time.monotonic() + timeout
    why = None
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            (n,) = struct.unpack("<Q", _read_exactly(sock, 8, deadline))
            if not 0 < n <= HANDSHAKE_LIMIT:
                why = f"not a Dask scheduler (its first reply announces {n} bytes)"
            elif b"python" not in _read_exactly(sock, n, deadline):
                why = "not a Dask scheduler (an unexpected reply)"
    except (TimeoutError, socket.timeout):
        why = f"no Dask handshake within --connect-timeout {timeout:g} s"
    except OSError as e:
        why = f"cannot connect ({e.strerror or e})"
    if why:
        raise UsageError(f"--scheduler {address}: {why}")


@contextlib.contextmanager
def dask_client(args):
    """A ``distributed.Client`` for ``--dask-local N`` or ``--scheduler ADDRESS``, else None."""
    if not (args.dask_local or args.scheduler):
        yield None
        return
    from ..extras import require

    require("distributed", "--dask-local" if args.dask_local else "--scheduler")
    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # stderr keeps the one-line contract
    with contextlib.ExitStack() as stack:
        if args.dask_local:
            cluster = stack.enter_context(LocalCluster(n_workers=args.dask_local, threads_per_worker=1,
                                                       processes=True, dashboard_address=None,
                                                       silence_logs=logging.CRITICAL))
            client = stack.enter_context(Client(cluster))
        else:
            probe_scheduler(args.scheduler, args.connect_timeout)
            try:
                client = stack.enter_context(Client(args.scheduler, timeout=args.connect_timeout))
            except OSError as e:
                from ._common import UsageError

                raise UsageError(f"--scheduler {args.scheduler}: cannot connect ({e})") from None
        yield client


def cmd_sweep(args):
    from .names import check_case

    check_case(args.case, args.law, args.scheme)  # before SymPy and SciPy load
    from ..cases import get_case, sweep
    from ..io import check_output_path
    from ..outputs import output_folder
    from ..study.grid import parse_grid
    from ..study.results import write_sweep
    from ._common import UsageError, parse_params

    from ..extras import require

    require("netCDF4", "nsfric sweep (its sweep.nc)")  # before hours of computing
    if args.dask_local or args.scheduler:
        require("distributed", "--dask-local" if args.dask_local else "--scheduler")
    case = get_case(args.case)
    grid = parse_grid(args.grid)
    params = parse_params(args.param)
    cache = None if args.no_cache else (args.cache or default_cache())
    check_output_path(args.out, "--out", "dir", beside=args.beside_existing, caches=[cache] if cache else [],
                      expect=SWEEP_FILES)
    if sum(bool(x) for x in (args.jobs and args.jobs > 1, args.dask_local, args.scheduler)) > 1:
        raise UsageError("give one of --jobs, --dask-local, --scheduler")
    dup = sorted({v for v in args.observable if args.observable.count(v) > 1})
    if dup:
        raise UsageError(f"--observable given more than once: {', '.join(dup)}")
    options = {k: getattr(args, k) for k in ("rtol", "atol") if getattr(args, k) is not None}
    from ._common import progress_mode

    progress = {"plain": "plain", "bar": True, "none": None}[progress_mode()]
    with output_folder(args.out, beside=args.beside_existing, caches=[cache] if cache else []) as stage:
        with dask_client(args) as client:
            ds = sweep(case, args.law, grid, args.observable, params=params, solver=args.solver,
                       options=options, t_end=args.t_end, estimate=not args.no_estimate, scheme=args.scheme,
                       dt=args.dt, executor=client, jobs=args.jobs, chunksize=args.chunksize,
                       cache_dir=cache, force=args.force, progress=progress,
                       on_failure="record" if args.keep_going else "raise")
        paths = write_sweep(ds, stage)
    failed = int((ds["failure"] != "").sum()) if "failure" in ds else 0
    n = ds.attrs["points"]
    print(f"{case.name}: {n} points ({ds.attrs['computed_points']} computed, the rest "
          f"from the cache) in {float(ds.attrs['seconds']):.1f} s"
          + (f"; {failed} of {n} points failed (NaN, reason in the failure column)" if failed else ""))
    for p in paths:
        print(os.path.join(args.out, os.path.relpath(p, stage)))
    if failed:  # --keep-going: everything written, the status says that points failed (as make -k)
        print(f"nsfric: failed: {failed} of {n} points (see the failure column of sweep.csv)", file=sys.stderr)
        return 1
    return 0


def register(sub):
    """Add ``sweep`` to the ``nsfric`` parser."""
    from ._common import PROGRESS_MODES, _count, _positive

    s = sub.add_parser("sweep", help="parameter sweep of a case's observables (CSV, netCDF), local or Dask")
    s.add_argument("case", help="a case name (see nsfric list)")
    s.add_argument("--law", help="law (default: the case's; or sweep it: --grid law=A,B)")
    s.add_argument("--grid", action="append", required=True, metavar="NAME=VALUES",
                   help="grid axis (repeatable): V1,V2,... | START:STOP:NUM | logspace:A:B:NUM (10**A..10**B)")
    s.add_argument("--param", action="append", metavar="NAME=VALUE", help="fixed parameter")
    s.add_argument("--observable", action="append", required=True, metavar="NAME",
                   help="a summary observable of the case (e.g. e_n), or error for discrete runs")
    s.add_argument("--scheme", help="discrete scheme of every point (or --grid scheme=...)")
    s.add_argument("--dt", type=_positive("--dt"), help="step of every point (or --grid dt=...)")
    s.add_argument("--solver", help="reference solver (default filippov; auto for discrete runs)")
    s.add_argument("--rtol", type=_positive("--rtol"))
    s.add_argument("--atol", type=_positive("--atol"))
    s.add_argument("--t-end", type=_positive("--t-end"))
    s.add_argument("--no-estimate", action="store_true",
                   help="skip the error estimate (a second solve at 100x looser tolerances)")
    s.add_argument("--jobs", type=_count("--jobs", lo=1), default=1, help="local worker processes")
    s.add_argument("--dask-local", type=_count("--dask-local", lo=1), metavar="N",
                   help="start a Dask LocalCluster of N worker processes")
    s.add_argument("--scheduler", metavar="ADDRESS", help="connect to a Dask scheduler, e.g. tcp://host:8786")
    s.add_argument("--connect-timeout", type=_positive("--connect-timeout"), default=10.0, metavar="S")
    s.add_argument("--chunksize", type=_count("--chunksize", lo=1), help="points per task")
    s.add_argument("--cache", metavar="DIR", help="point cache (default $NSFRIC_CACHE_DIR/sweep or ~/.cache/nsfric/sweep)")
    s.add_argument("--no-cache", action="store_true", help="neither read nor write the point cache")
    s.add_argument("--force", action="store_true", help="recompute every point (and refresh the cache)")
    s.add_argument("--keep-going", action="store_true",
                   help="a point that fails gets NaN and its reason in the failure column; the rest run on "
                        "(exit status 1 if any point failed)")
    s.add_argument("--progress", nargs="?", const="bar", choices=PROGRESS_MODES, metavar="MODE",
                   help="progress on stderr: plain (a line per tenth of the points, for logs), bar (a bar on a "
                        "terminal, else plain lines; the mode of a bare --progress), none; default: "
                        "$NSFRIC_PROGRESS, else bar on a terminal and none otherwise")
    s.add_argument("--out", required=True, metavar="DIR")
    from ._common import _beside_option
    _beside_option(s)
    s.set_defaults(func=cmd_sweep)
    return sub
