"""The ``nsfric`` command.

``list`` cases, laws and solvers; ``reference`` writes an exact reference trajectory
(CSV + JSON sidecar); ``run`` reproduces a case's figures; ``check`` runs the symbolic
derivation checks; ``report`` gathers everything in one HTML page; ``sweep`` runs a
parameter sweep (``nsfric.cli.sweep``); ``verify`` measures another code's results
(``nsfric.cli.verify``).  Bad input gives a one-line message and exit code 2; nothing is
written.
"""
from __future__ import annotations

import errno
import inspect
import json
import os
import signal
import sys
import warnings

import numpy as np

from ..errors import BudgetError, CrossCheckFailed, ReportError, SolverFailure, Unresolved, WorkerDied, ZenoError
from ..extras import MissingExtra


from ..io import check_output_path
from ..outputs import output_folder
from ._common import (MAX_REFERENCE_SAMPLES, UsageError, _Parser, _beside_option, _count,  # noqa: F401
                      _positive, _progress, progress_option, set_progress,
                      caught_text, check_output_pair, parse_params)


# -- commands --------------------------------------------------------------------------
def _table(rows) -> None:
    """Print ``(name, text, ...)`` rows indented, the names padded to the longest one;
    further texts of a row go on their own lines under the first."""
    width = max((len(row[0]) for row in rows), default=0)
    for name, text, *more in rows:
        print(f"  {name:{width}s}  {text}")
        for line in more:
            print(f"  {'':{width}s}  {line}")


def cmd_list(args):
    from . import names

    if args.case is not None:
        names.check_case(args.case)  # an unknown case before SymPy loads
        from .describe import describe

        print("\n".join(describe(args.case, names.names())))
        return 0
    table = names.names()  # without plug-ins: the generated table, no SymPy or SciPy import
    print("cases:")
    _table([(name, c["reference"], "laws: " + ", ".join(c["laws"])
             + ("; schemes only: " + ", ".join(c["scheme_laws"]) if c.get("scheme_laws") else ""))
            for name, c in table["cases"].items()])
    print("laws:")
    _table(list(table["laws"].items()))
    print("reference solvers:")
    _table(list(table["solvers"].items()))
    print("schemes:")
    _table([(name, f"order {order}") for name, order in table["schemes"].items()])
    from ..conventions import CONVENTIONS  # dataclasses only: no SymPy or SciPy

    print("contact conventions (--convention):")
    _table([(name, c.describe()) for name, c in sorted(CONVENTIONS.items())])
    return 0


def cmd_reference(args):
    from . import names

    names.check_case(args.case, args.law)  # before SymPy and SciPy load
    from ..cases import get_case
    from ..cases.reference import reference_meta
    from ..io import write_csv_with_sidecar
    from ..solvers import get_solver
    from ..solvers.base import LOOP_OPTIONS, extreme_hint
    from ..solvers.crosscheck import check_rtol, disagreement, failure_line, meaningless_line, verdict
    from ..solvers.loop import check_memory

    case = get_case(args.case)
    law = case.check_law(args.law)
    params = parse_params(args.param)
    if case.exact_solver:
        return _own_reference(case, law, params, args)
    prob = case.reference_problem(law, params, args.t_end, args.solver)
    check_output_pair(args.out)
    if not args.no_cross_check:
        check_rtol(args.rtol)
    options = {}
    if args.method:
        if args.solver != "filippov":
            raise UsageError(f"--method applies to --solver filippov only, not {args.solver!r}")
        options["method"] = args.method
    for name in ("max_events", "zeno_window", "max_seconds"):
        if getattr(args, name) is not None:
            options[name] = getattr(args, name)
    n_cols = 2 * len(prob.model.states) + len(prob.model.output_names) + 2
    check_memory(8.0 * 8 * args.samples * n_cols, f"--samples {args.samples}",
                 "choose fewer --samples")
    solver = get_solver(args.solver, **case.solver_options(law, args.solver, rtol=args.rtol, atol=args.atol, **options))
    t_eval = np.linspace(prob.t_span[0], prob.t_span[1], args.samples)
    _progress(f"{case.name}/{law}: {args.solver}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sol = solver.solve(prob, t_eval=t_eval)
        cross = None
        if not args.no_cross_check:
            other = "ida" if args.solver != "ida" else "filippov"
            if solver.for_model(prob.model).name == get_solver(other).for_model(prob.model).name:
                other = "filippov"  # the same solver on this model (pile-ida is ida's): the other one
            _progress(f"{case.name}/{law}: cross-check with {other}")
            loop = {k: v for k, v in options.items() if k in LOOP_OPTIONS}
            sol_b = get_solver(other, **case.solver_options(law, other, **loop)).solve(prob, t_eval=t_eval)
            cross = verdict(sol, sol_b, disagreement(sol, sol_b))
            if not cross["meaningful"]:
                raise UsageError(meaningless_line(cross))
            if not cross["passed"]:
                raise CrossCheckFailed(failure_line(args.solver, cross))
        cols = _with_event_column(sol, t_eval)
    meta = reference_meta(case, law, sol, cross)
    meta["columns"] = {"event": EVENT_COLUMN}
    meta["warnings"] = sorted(set(sol.info.get("warnings", [])) | caught_text(caught))
    side = write_csv_with_sidecar(args.out, cols, meta, finite=extreme_hint(prob.params))
    _progress("")
    msg = f"wrote {args.out} and {side}: {len(sol.t)} samples, {len(sol.events)} events"
    if cross:
        msg += (f"; max |{args.solver} - {cross['against']}| = {cross['disagreement']:.2e} in {cross['state']} "
                f"(tolerance {cross['tolerance']:.2e}, passed)")
    print(msg)
    return 0


#: the sidecar's description of the ``event`` column of ``nsfric reference``
EVENT_COLUMN = ("1 on the rows added for an event (at its time, the state after it: a switch between the grid "
                "times, or the state after a reset at a grid time, whose grid row comes first with the state "
                "before it), 0 on the uniform grid of --samples times: dropping the rows with event = 1 leaves "
                "the grid")


def _with_event_column(sol, grid) -> dict:
    """``sol.columns()`` with the ``event`` column (0/1, written as integers) last."""
    cols = sol.columns()
    cols["event"] = sol.event_rows(grid).astype(object)
    return cols


def _own_reference(case, law, params, args):
    """``nsfric reference`` of a case solved by its own exact solver
    (:attr:`~nsfric.cases.base.Case.exact_solver`, e.g. the column's contact network):
    the default ``--solver filippov`` (the event-driven reference) stands for it; the
    registered solvers' tolerances and steppers do not apply, and no second solver of
    the model exists to cross-check it (its tests compare it with an independent one)."""
    from ..cases.reference import reference_meta
    from ..io import write_csv_with_sidecar

    own = case.exact_solver
    if args.solver != "filippov":
        raise UsageError(f"case {case.name!r} is solved by its own exact solver {own!r} (the default "
                         f"--solver filippov); --solver {args.solver} does not apply")
    for opt in ("method", "rtol", "atol"):
        if getattr(args, opt) is not None:
            raise UsageError(f"--{opt} does not apply to case {case.name!r}: its exact solver {own!r} "
                             "takes no tolerances or stepper")
    check_output_pair(args.out)
    options = {n: getattr(args, n) for n in ("max_events", "zeno_window", "max_seconds")
               if getattr(args, n) is not None}
    _progress(f"{case.name}/{law}: {own}")
    sol = case.reference_solution(law, params=params, t_end=args.t_end, samples=args.samples, **options)
    meta = reference_meta(case, law, sol)
    meta["columns"] = {"event": EVENT_COLUMN}
    meta["warnings"] = sorted(sol.info.get("warnings", []))
    # its grid: `samples` times from the start to where the solver stopped (a separation)
    cols = _with_event_column(sol, np.linspace(sol.t[0], sol.span[1], args.samples))
    side = write_csv_with_sidecar(args.out, cols, meta)
    _progress("")
    print(f"wrote {args.out} and {side}: {len(sol.t)} samples, {len(sol.events)} events (solver {own}; "
          "no second solver of this model to cross-check)")
    return 0


def cmd_run(args):
    from . import names

    table = names.stored()
    if table is None or args.case not in table["cases"]:
        from ..studies import find_study

        study = find_study(args.case)
        if study is not None:
            return _run_study(args, study)
    names.check_case(args.case)  # before SymPy and SciPy load
    from ..cases import get_case

    case = get_case(args.case)
    out = args.out or os.path.join("out", case.name)
    check_output_path(out, "--out", "dir", beside=args.beside_existing)
    params = parse_params(args.param)
    takes = inspect.signature(case.run).parameters
    if params and "params" not in takes:
        raise UsageError(f"case {case.name!r} takes no --param in 'nsfric run'")
    if args.jobs is not None and "jobs" not in takes:
        raise UsageError(f"case {case.name!r} takes no --jobs in 'nsfric run'")
    extra = {"params": params} if params else {}
    if args.jobs is not None:
        extra["jobs"] = args.jobs
    if "cache_dir" in takes and not args.no_cache:
        from .sweep import default_cache

        extra["cache_dir"] = default_cache()
    with output_folder(out, beside=args.beside_existing) as stage:
        result = case.run(stage, progress=lambda msg: _progress(msg if not msg or msg.startswith(case.name)
                                                                else f"{case.name}: {msg}"), **extra)
    _progress("")
    paths = [os.path.join(out, os.path.relpath(path, stage)) for path in result["written"]]
    for path in paths:
        print(path)
    from .summary import run_summary

    print("\n" + "\n".join(run_summary(case, out, paths)))  # after a blank line: the paths stay first
    return 0


def _run_study(args, study):
    """``nsfric run STUDY`` (:mod:`nsfric.studies`): its files into ``--out``, all or none."""
    if args.jobs is not None and not study.takes_jobs:
        raise UsageError(f"study {study.name!r} takes no --jobs in 'nsfric run'")
    out = args.out or os.path.join("out", study.name)
    check_output_path(out, "--out", "dir", beside=args.beside_existing)
    params = parse_params(args.param)
    with output_folder(out, beside=args.beside_existing) as stage:
        result = study.run(stage, progress=_progress, params=params, jobs=args.jobs)
    _progress("")
    for path in result["written"]:
        print(os.path.join(out, os.path.relpath(path, stage)))
    print("\n" + "\n".join(result.get("summary", ())))
    return 0


def cmd_check(args):
    from ..symbolic.checks import run_checks

    results = run_checks(args.only)
    if not results:
        raise UsageError(f"--only {args.only!r} matches no check")
    if args.json:
        print(json.dumps([{"name": r.name, "source": r.source, "statement": r.statement,
                           "passed": bool(r.passed), "detail": r.detail} for r in results],
                         indent=2, ensure_ascii=False))
    else:
        w = max(len(r.name) for r in results)
        ws = max(len(r.source) for r in results)
        print(f"{'check':{w}s}  {'source':{ws}s}  result  seconds")
        for r in results:
            print(f"{r.name:{w}s}  {r.source:{ws}s}  {'PASS' if r.passed else 'FAIL':6s}  {r.seconds:7.2f}")
        failed = [r for r in results if not r.passed]
        print(f"{len(results) - len(failed)}/{len(results)} checks passed")
        for r in failed:
            print(f"FAILED {r.name}: {r.detail}")
    return 0 if all(r.passed for r in results) else 1


def cmd_report(args):
    from ..report import build_report

    check_output_path(args.out, "--out", "dir", beside=args.beside_existing)
    with output_folder(args.out, beside=args.beside_existing) as stage:
        path = build_report(stage, args.cases, checks=not args.no_checks,
                            progress=lambda msg: _progress(f"report: {msg}" if msg else ""),
                            force=args.force, jobs=args.jobs or 1)
    _progress("")
    print(os.path.join(args.out, os.path.relpath(path, stage)))
    return 0


def build_parser():
    from . import names

    from .._version import __version__

    p = _Parser(prog="nsfric", description="Numerically exact references for the nonsmooth friction contact "
                "laws of DEM, and the discrete schemes DEM codes run, measured against them.",
                epilog="examples: nsfric list | nsfric run sliding-plates | nsfric reference dry-oscillator "
                "--out osc.csv | nsfric COMMAND --help")
    p.add_argument("--version", action="version", version=f"nsfric {__version__}")
    p.add_argument("--plugin", action="append", metavar="MODULE",
                   help="import this Python module before the command runs (repeatable; anywhere on the "
                        "line): a module that registers schemes, cases, laws or conventions, e.g. with "
                        "nsfric.register_scheme")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("list", help="list cases, laws, solvers and schemes; with CASE, that case's laws, "
                       "parameters (defaults, units, ranges), observables and solvers")
    s.add_argument("case", nargs="?", metavar="CASE", help="describe this case (see nsfric list)")
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("reference", help="write an exact reference trajectory (CSV + JSON)")
    s.add_argument("case", help="a case name (see nsfric list)")
    s.add_argument("--law")
    s.add_argument("--solver", default="filippov", choices=names.solver_names())
    s.add_argument("--param", action="append", metavar="NAME=VALUE")
    s.add_argument("--t-end", type=_positive("--t-end"))
    s.add_argument("--samples", type=_count("--samples", 2, MAX_REFERENCE_SAMPLES), default=1001,
                   help=f"uniform output samples (the event times are added), 2 to {MAX_REFERENCE_SAMPLES} "
                        "(default 1001)")
    s.add_argument("--method", choices=["auto", "dop853-numba", "DOP853", "RK45", "Radau", "BDF", "LSODA"],
                   help="stepper of the filippov solver (default auto: LSODA on stiff modes, otherwise DOP853 "
                        "compiled with numba, dop853-numba, where it compiles and pays: compiled on disk by an earlier "
                        "run, or a long solve; else SciPy's)")
    s.add_argument("--max-events", type=_count("--max-events", 1), metavar="N",
                   help="event budget of the mode loop (default 10000)")
    s.add_argument("--zeno-window", type=_count("--zeno-window", 2), metavar="N",
                   help="Zeno detector: N events within 1e-9 of the span stop the run (default 50)")
    s.add_argument("--max-seconds", type=_positive("--max-seconds"), metavar="S",
                   help="CPU-time budget of each solve (default 600)")
    s.add_argument("--rtol", type=_positive("--rtol"))
    s.add_argument("--atol", type=_positive("--atol"))
    s.add_argument("--no-cross-check", action="store_true",
                   help="skip the independent second solve (ida, or filippov for --solver ida); with it, a "
                        "disagreement beyond 10000 (rtol |y| + atol) fails the command (exit 1)")
    s.add_argument("--out", required=True, metavar="FILE.csv")
    s.set_defaults(func=cmd_reference)

    s = sub.add_parser("run", help="reproduce a case's figures and tables, or run a named study")
    s.add_argument("case", help="a case name (see nsfric list), or a study: lammps-conformance")
    s.add_argument("--out", metavar="DIR", help="output folder (default out/CASE)")
    s.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="parameter override, for the cases whose run takes them (oblique-impact)")
    s.add_argument("--jobs", type=_count("--jobs", 1), metavar="N",
                   help="local worker processes, for the cases whose figures are sweeps (oblique-impact)")
    s.add_argument("--no-cache", action="store_true",
                   help="neither read nor write the sweep point cache ($NSFRIC_CACHE_DIR/sweep or "
                        "~/.cache/nsfric/sweep)")
    _beside_option(s)
    progress_option(s, "step (a figure, a table)")
    s.set_defaults(func=cmd_run)

    s = sub.add_parser("check", help="symbolic derivation checks of the papers' identities")
    s.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    s.add_argument("--only", metavar="PATTERN", help="run the checks whose name or source contains PATTERN")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("report", help="one HTML page with every case's figures, tables and checks")
    s.add_argument("--out", default=os.path.join("out", "report"), metavar="DIR")
    s.add_argument("--cases", nargs="+", metavar="CASE", help="only these cases (default: all)")
    s.add_argument("--no-checks", action="store_true", help="leave out the symbolic checks")
    s.add_argument("--force", action="store_true", help="recompute every case instead of reusing the cache")
    s.add_argument("--jobs", type=_count("--jobs", 1), metavar="N",
                   help="local worker processes running the cases (default 1); the page does not depend on it")
    _beside_option(s)
    progress_option(s, "case and step")
    s.set_defaults(func=cmd_report)

    from . import export, study, sweep, verify, warmup
    study.register(sub)
    sweep.register(sub)
    export.register(sub)
    verify.register(sub)
    warmup.register(sub)
    return p


class Terminated(BaseException):
    """SIGTERM received: unwinds like an interrupt (staged outputs are removed), and is
    no Exception, so no library (numba's compiler, a solver) catches and wraps it."""


def _terminate(signum, frame):
    """SIGTERM, SIGHUP: unwind like an interrupt, so staged outputs are removed."""
    raise Terminated(signum)


def _open_closed_streams():
    """A closed standard output or error (``nsfric list >&-``): the command still runs
    and writes its files; what it would print is discarded.  The descriptor is pointed at
    /dev/null first, so no file the command opens can take number 1 or 2 and receive
    output meant for the terminal."""
    for fd, name in ((1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
            closed = False
        except OSError:
            closed = True
        if closed:
            null = os.open(os.devnull, os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if closed or getattr(sys, name) is None:
            setattr(sys, name, open(fd, "w", closefd=False))


def main(argv=None) -> int:
    """Run the ``nsfric`` command; returns its exit status (0 success, 1 a failed run, 2
    bad input, 130 interrupted by SIGINT, 143 terminated by SIGTERM, 129 by SIGHUP).  Failures are one
    line on stderr, never a traceback."""
    _open_closed_streams()
    try:
        signal.signal(signal.SIGTERM, _terminate)
        if signal.getsignal(signal.SIGHUP) is signal.SIG_DFL:  # not under nohup
            signal.signal(signal.SIGHUP, _terminate)
    except ValueError:  # not the main thread
        pass
    try:
        rc = _run(argv)
        sys.stdout.flush()
        return rc
    except Terminated as e:
        signum = e.args[0] if e.args else signal.SIGTERM
        _silence_stdout()
        print(f"nsfric: terminated ({signal.Signals(signum).name})", file=sys.stderr)
        _silence_stream(2)
        return 128 + signum
    except BrokenPipeError:  # the reader stopped early (`nsfric list | head -1`)
        _silence_stdout()
        return 0
    except OSError as e:
        if e.errno != errno.ENOSPC and not isinstance(e, (FileNotFoundError, PermissionError,
                                                           IsADirectoryError, NotADirectoryError)):
            raise
        _silence_stdout()
        print(f"nsfric: error: cannot write: {e.strerror or e}", file=sys.stderr)
        return 1
    except (UsageError, ValueError, MissingExtra) as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"nsfric: error: {msg}", file=sys.stderr)
        return 2
    except (ZenoError, BudgetError, SolverFailure, Unresolved, WorkerDied, CrossCheckFailed, ReportError) as e:  # reported, never a hang or a traceback
        print(f"nsfric: failed: {str(e).splitlines()[0]}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        _silence_stdout()
        print("nsfric: interrupted (SIGINT)", file=sys.stderr)
        _silence_stream(2)
        return 130


def load_plugins(argv: list) -> list:
    """Import the module of every ``--plugin MODULE`` (or ``--plugin=MODULE``) of
    ``argv`` before ``--``, in order, and return ``argv`` without them: the modules
    register their schemes, cases, laws or conventions before the parser offers the
    names.  A module that does not import is a :class:`UsageError` naming it."""
    import importlib

    rest, modules, i = [], [], 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            rest.extend(argv[i:])
            break
        if a == "--plugin" or a.startswith("--plugin="):
            name = a.partition("=")[2] if "=" in a else (argv[i + 1] if i + 1 < len(argv) else "")
            i += 1 if "=" in a else 2
            if not name or name.startswith("-"):
                raise UsageError("--plugin needs a MODULE: an importable Python module (on PYTHONPATH)")
            modules.append(name)
            continue
        rest.append(a)
        i += 1
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as e:  # noqa: BLE001 - any failure of a user's module is one line
            msg = str(e).splitlines()[0] if str(e) else ""
            raise UsageError(f"--plugin {name!r} does not import: {type(e).__name__}: {msg}") from None
    return rest


def _run(argv) -> int:
    """Parse and run one command.  Library warnings are recorded, never printed raw (a
    command writes the relevant ones into its sidecar); a plug-in that failed to load is
    reported as one line per plug-in."""
    from .. import cache_store
    from ..outputs import KeptFileWarning
    from ..plugins import PluginWarning

    cache_store.clear_notes()  # the caches skipped by this command (also in its sidecar)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            argv = load_plugins(sys.argv[1:] if argv is None else list(argv))
            args = build_parser().parse_args(argv)
            set_progress(getattr(args, "progress", None))
            return args.func(args)
        finally:
            plugin = [f"{w.category.__name__}: {w.message}" for w in caught
                      if issubclass(w.category, PluginWarning)]
            for line in dict.fromkeys(plugin):
                print(line.splitlines()[0], file=sys.stderr)
            for w in caught:  # an earlier output the user changed, kept
                if issubclass(w.category, KeptFileWarning):
                    print(f"nsfric: note: {w.message}", file=sys.stderr)
            for note in cache_store.notes():
                print(f"nsfric: note: the {note['kind']} cache in {note['path']} was skipped "
                      f"({note['skipped']})", file=sys.stderr)


def _silence_stream(fd: int):
    """After the one line of an interrupt: point ``fd`` at /dev/null, so what shuts down
    after it (a Dask cluster's atexit hook, its workers' loggers) adds no traceback."""
    try:
        sys.stderr.flush()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
        import logging

        logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
    except (OSError, ValueError):  # pragma: no cover
        pass


def _silence_stdout():
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
