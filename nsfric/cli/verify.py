"""``nsfric verify``: another code's results measured against the exact reference.

``nsfric verify CASE --law LAW [--law ...] [--convention NAME] [--param NAME=VALUE ...]
--input FILE.csv --out DIR`` reads one row per run (``dt``, varied parameters,
observables; :mod:`nsfric.study.verify_input`), prints one line per parameter point and
observable (its status, order, limit and offset) and writes ``verify.json``,
``verify.csv`` and ``verify.png`` (:mod:`nsfric.study.verify`).  ``--law auto`` tests
every law of the case.  ``--code lammps|kratos [--style STYLE] --dt DT --dt DT --dt DT ...``
instead of ``--input`` runs the other code itself over the step ladder, in-process, by
the code's adapter for the case (:data:`CODES`, :mod:`nsfric.adapters`); without
``--law`` and ``--convention`` the style is measured against the exact law it declares,
under its convention preset.  Bad input: one line on stderr, exit code 2, nothing written.
"""
from __future__ import annotations

import os


def cmd_verify(args):
    from .names import check_case

    laws = args.law or [None]
    for law in laws:
        check_case(args.case, None if law == "auto" else law)  # before SymPy and SciPy load
    from ..cases import get_case, verify
    from ..conventions import get_convention
    from ..io import check_output_path
    from ..outputs import output_folder
    from ..study.verify_result import VERIFY_FILES
    from ._common import UsageError, _progress, parse_params

    dup = sorted({v for v in laws if v is not None and laws.count(v) > 1})
    if dup:
        raise UsageError(f"--law given more than once: {', '.join(dup)}")
    convention = get_convention(args.convention) if args.convention else None
    case = get_case(args.case)
    params = parse_params(args.param)
    check_output_path(args.out, "--out", "dir", beside=args.beside_existing, expect=VERIFY_FILES)
    source = _source(args, case.name, UsageError)
    exact, preset = source.pop("exact", None), source.pop("convention", None)
    if laws == [None] and convention is None and exact:  # the style's own exact law, under its preset
        laws, convention = [exact], get_convention(preset) if preset else None
    with output_folder(args.out, beside=args.beside_existing) as stage:  # all three files or none
        res = verify(case, None if laws == [None] else laws, convention=convention, **source,
                     params=params, observables=args.observable, t_end=args.t_end, progress=_progress)
        paths = [os.path.join(args.out, os.path.relpath(p, stage)) for p in res.write(stage)]
    _progress("")
    print(res.summary())
    for p in paths:
        print(p)
    return 0


#: the codes ``--code`` runs in-process: name -> its adapters (modules of
#: :mod:`nsfric.adapters`, each running one case: its ``CASE``), the first style of each
#: adapter's ``STYLES`` the default
CODES = {"lammps": ("lammps", "lammps_wall", "lammps_chung"), "kratos": ("kratos", "kratos_chung")}


def adapter_for(code: str, case: str, UsageError):
    """The adapter module of ``code`` that runs ``case``; UsageError naming the cases the
    code runs otherwise."""
    import importlib

    modules = [importlib.import_module(f"nsfric.adapters.{m}") for m in CODES[code]]
    for adapter in modules:
        if adapter.CASE == case:
            return adapter
    cases = sorted({a.CASE for a in modules})
    raise UsageError(f"--code {code} runs the case{'s' if len(cases) > 1 else ''} {', '.join(cases)}, not {case!r}")


def _source(args, case: str, UsageError) -> dict:
    """``{"input": FILE}`` or ``{"runner": ..., "dts": [...]}`` from ``--input`` or
    ``--code/--style/--dt``."""
    if (args.input is None) == (args.code is None):
        raise UsageError("give --input FILE.csv or --code CODE (with --dt), not both and not neither")
    if args.input is not None:
        if args.dt or args.style:
            raise UsageError("--dt and --style go with --code, not with --input")
        if not os.path.isfile(args.input):
            raise UsageError(f"--input {args.input!r}: no such file")
        return {"input": args.input}
    adapter = adapter_for(args.code, case, UsageError)
    style = args.style or next(iter(adapter.STYLES))
    if style not in adapter.STYLES:
        raise UsageError(f"--style must be one of {sorted(adapter.STYLES)} on case {case}, got {style!r}")
    if not args.law and not args.convention and getattr(adapter.STYLES[style], "exact", "") is None:
        raise UsageError(f"--style {style}: nsfric has no exact law of this style; give --law (the law to "
                         "measure it against) or --convention")
    dts = sorted(set(args.dt or []), reverse=True)
    if len(dts) < 3:
        raise UsageError("--dt: give at least 3 different steps (the step ladder)")
    why = adapter.available()
    if why:
        raise UsageError(why)
    spec = adapter.STYLES[style]
    return {"runner": adapter.runner(style), "dts": dts, "exact": getattr(spec, "exact", None),
            "convention": getattr(spec, "convention", None)}


def register(sub):
    """Add ``verify`` to the ``nsfric`` parser."""
    from ._common import _beside_option, _positive

    s = sub.add_parser("verify", help="measure another code's results (CSV per dt) against the exact reference")
    s.add_argument("case", help="a case name (see nsfric list)")
    s.add_argument("--law", action="append",
                   help="law (repeatable), or auto: every law of the case; default: the convention's laws, "
                        "else, with --code, the style's exact law under its convention, else the case's default law")
    s.add_argument("--convention", metavar="NAME", help="a named convention (its parameters and laws)")
    s.add_argument("--param", action="append", metavar="NAME=VALUE", help="fixed parameter of the case")
    s.add_argument("--code", choices=sorted(CODES),
                   help="run this code in-process over the steps --dt instead of reading --input")
    s.add_argument("--style", metavar="STYLE", help="the code's contact style, by case (lammps on oblique-impact: "
                   "gran/hooke/history, gran/hertz/history, granular/NORMAL/TANGENTIAL, see "
                   "nsfric.adapters.lammps_styles.STYLES; on sphere-wall: granular, hooke/history, "
                   "granular-nohistory; on chung-ooi: hertz-mindlin, hertz-mindlin-force, hertz-mindlin-rescale, "
                   "hertz-mindlin-rescale-force; kratos on sphere-wall: DEM_D_Linear_viscous_Coulomb, on chung-ooi: "
                   "DEM_D_Hertz_viscous_Coulomb); default: the first")
    s.add_argument("--dt", action="append", type=_positive("--dt"), metavar="DT",
                   help="a time step of the ladder --code runs (repeat, at least 3)")
    s.add_argument("--input", metavar="FILE.csv",
                   help="one row per run: dt, varied parameters (nsfric's names), observables (e.g. psi_f, "
                        "<state>_end), optionally E_kin_before and E_kin_after; or the runs' trajectories: "
                        "dt, parameters, t and one column per state, the rows of a run in time order")
    s.add_argument("--observable", action="append", metavar="NAME",
                   help="compare only this column (repeatable; default: every observable column)")
    s.add_argument("--t-end", type=_positive("--t-end"), help="end time of the reference (default: the case's)")
    s.add_argument("--out", required=True, metavar="DIR")
    _beside_option(s)
    s.set_defaults(func=cmd_verify)
    return sub
