"""CLI commands of the discrete-scheme studies: ``simulate`` and ``converge``.

``nsfric simulate CASE --law L --scheme S --dt DT --out FILE.csv`` writes the discrete
trajectory (columns ``t``, states, derived quantities, ``mode``; with ``--stages`` the
auxiliary stage rows too, marked in a ``stage`` column) and a JSON sidecar with its
provenance.  ``nsfric converge CASE --scheme S [--scheme S2 ...] --out DIR`` writes
``convergence.csv``, ``orders.csv``, ``convergence.json`` and ``convergence.png``.
Bad input: one line on stderr, exit code 2, nothing written.
"""
from __future__ import annotations

import warnings


def _bar(done, total, label):
    from ._common import _fraction

    _fraction(done, total, label)


def cmd_simulate(args):
    from .names import check_case

    check_case(args.case, args.law, args.scheme)  # before SymPy and SciPy load
    from ..cases import get_case
    from ._common import UsageError, _progress, caught_text, check_output_pair, parse_params
    from ..errors import SolverFailure
    from ..io import versions, write_csv_with_sidecar
    from ..solvers.base import extreme_hint
    from ..cases import simulate
    from ..schemes import get_scheme

    check_output_pair(args.out)
    case = get_case(args.case)
    law = case.check_law(args.law)
    scheme = get_scheme(args.scheme)
    params = parse_params(args.param)
    if args.dt is None:  # the case's own time step (e.g. Krengel & Matuttis Table 1), --param dt=...
        values = case.bind(law, params)
        if "dt" not in values:
            raise UsageError(f"--dt is required: case {case.name!r} has no dt parameter")
        args.dt = values["dt"]
    _progress(f"{case.name}/{law}: {scheme.name}, dt = {args.dt:g}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = simulate(case, law, scheme, args.dt, args.t_end, params, stages=args.stages,
                       max_steps=args.max_steps, max_seconds=args.max_seconds)
        cols = res.columns(stages=args.stages)
    if res.termination.startswith("diverged"):
        raise SolverFailure(f"{scheme.name} {res.termination} with dt = {args.dt:g}; nothing written; "
                            f"choose a smaller --dt{extreme_hint(res.params, '')}")
    meta = {
        "case": case.name, "law": law, "scheme": scheme.name, "order": scheme.order,
        "scheme_reference": scheme.reference, "dt": args.dt, "t_end": res.t_end,
        "parameters": res.params, "states": list(res.state_names),
        "derived": list(res.output_names), "stages": bool(args.stages),
        "n_steps": res.n_steps, "n_rhs": res.n_rhs, "n_jac": res.n_jac, "seconds": res.seconds,
        "events": [e.as_dict() for e in res.events], "termination": res.termination, "reference": res.model.reference,
        "warnings": sorted(caught_text(caught)), "versions": versions(),
    }
    if "stage" in cols:
        cols["stage"] = cols["stage"].astype(object)  # written as integers
    side = write_csv_with_sidecar(args.out, cols, meta, finite=extreme_hint(res.params, "; check the --param values"))
    _progress("")
    print(f"wrote {args.out} and {side}: {res.n_steps} steps of {scheme.name} (dt = {args.dt:g}), "
          f"{res.n_rhs} rhs evaluations, {res.termination}")
    return 0


def cmd_converge(args):
    from .names import check_case

    for law in args.law or [None]:
        for scheme in args.scheme:
            check_case(args.case, law, scheme)  # before SymPy and SciPy load
    from ..cases import get_case
    from ._common import UsageError, _progress, parse_params
    from ..cases import converge
    import os

    from ..io import check_output_path
    from ..outputs import output_folder

    case = get_case(args.case)
    laws = args.law or [case.default_law]
    params = parse_params(args.param)
    check_output_path(args.out, "--out", "dir", beside=args.beside_existing,
                       expect=("convergence.csv", "orders.csv", "convergence.json", "convergence.png"))
    for opt, values in (("--law", laws), ("--scheme", args.scheme), ("--dt", args.dt or []),
                         ("--time", args.time or [])):
        dup = sorted({str(v) for v in values if list(values).count(v) > 1})
        if dup:
            raise UsageError(f"{opt} given more than once: {', '.join(dup)}")
    fit_range = tuple(args.fit_range) if args.fit_range else None
    label = f"{case.name}: converge"
    with output_folder(args.out, beside=args.beside_existing) as stage:  # all four files or none
        res = converge(case, laws, args.scheme, dts=args.dt, variables=args.var, times=args.time,
                       t_end=args.t_end, params=params, fit_range=fit_range, jobs=args.jobs,
                       progress=lambda d, t: _bar(d, t, label), max_steps=args.max_steps,
                       max_seconds=args.max_seconds, phases=args.phases, ladder_seconds=args.ladder_seconds)
        paths = [os.path.join(args.out, os.path.relpath(p, stage)) for p in res.write(stage)]
    _progress("")
    w = max(len(f"{o['law']} {o['scheme']}") for o in res.orders())
    print(f"{'law scheme':{w}s}  order     stderr  dt range            nominal  phases  max-phase order")
    for o in res.orders():
        head = f"{o['law'] + ' ' + o['scheme']:{w}s}  "
        worst = "no order" if o["reason_max"] else f"{o['order_max']:.2f} ± {o['order_max_stderr']:.2g}"
        tail = f"{o['nominal_order']!s:7s}  {o['n_phases']:6d}  {worst}"
        if o["reason"]:  # no order: say why, never a number
            print(f"{head}{'no order':8s}  {'':6s}  {'':18s}  {tail}   {o['reason'][10:]}")
        else:
            print(f"{head}{o['order']:8.2f}  {o['order_stderr']:6.3f}  "
                  f"{'[%.3g, %.3g]' % (o['dt_min'], o['dt_max']):18s}  {tail}")
    for p in paths:
        print(p)
    return 0


def register(sub):
    """Add ``simulate`` and ``converge`` to the ``nsfric`` parser."""
    from ._common import _count, _positive
    from .names import scheme_names

    SCHEMES, ALIASES = scheme_names()

    s = sub.add_parser("simulate", help="run a discrete DEM scheme with a fixed step (CSV + JSON)")
    s.add_argument("case", help="a case name (see nsfric list)")
    s.add_argument("--law")
    s.add_argument("--scheme", required=True, choices=list(SCHEMES) + list(ALIASES), metavar="SCHEME",
                   help="one of: " + ", ".join(SCHEMES))
    s.add_argument("--dt", type=_positive("--dt"),
                   help="time step (default: the case's dt parameter, if it has one)")
    s.add_argument("--t-end", type=_positive("--t-end"))
    s.add_argument("--param", action="append", metavar="NAME=VALUE")
    s.add_argument("--stages", action="store_true", help="add the auxiliary stage states as rows")
    s.add_argument("--max-steps", type=_count("--max-steps", 1), metavar="N",
                   help="refuse runs of more than N steps (default: only the memory limit)")
    s.add_argument("--max-seconds", type=_positive("--max-seconds"), metavar="S",
                   help="CPU-time budget of each run (default 600)")
    s.add_argument("--out", required=True, metavar="FILE.csv")
    s.set_defaults(func=cmd_simulate)

    s = sub.add_parser("converge", help="convergence study: errors, observed orders, work-precision")
    s.add_argument("case", help="a case name (see nsfric list)")
    s.add_argument("--law", action="append", help="law (repeatable; default: the case's default)")
    s.add_argument("--scheme", action="append", required=True, choices=list(SCHEMES) + list(ALIASES), metavar="SCHEME",
                   help="scheme (repeatable): " + ", ".join(SCHEMES))
    s.add_argument("--dt", action="extend", nargs="+", type=_positive("--dt"),
                   help="steps (default: t_end/(50 2^j), j = 0..6, extended by halving until the order "
                        "settles, within --max-steps and --ladder-seconds)")
    s.add_argument("--phases", type=_count("--phases", 1, 64), metavar="N",
                   help="grid phases per step: runs started at j dt/N, errors averaged (and their maximum "
                        "kept) over them (default: 8 where the reference has a switching event, else 1)")
    s.add_argument("--ladder-seconds", type=_positive("--ladder-seconds"), metavar="S",
                   help="CPU-time budget of the default ladder's extension (default 60)")
    s.add_argument("--var", action="append", metavar="STATE", help="states compared (default: all)")
    s.add_argument("--time", action="append", type=_positive("--time"), metavar="T",
                   help="also report the error at the step nearest to T")
    s.add_argument("--t-end", type=_positive("--t-end"))
    s.add_argument("--param", action="append", metavar="NAME=VALUE")
    s.add_argument("--fit-range", nargs=2, type=_positive("--fit-range"), metavar=("DT_MIN", "DT_MAX"))
    s.add_argument("--jobs", type=_count("--jobs", lo=1), default=1)
    s.add_argument("--max-steps", type=_count("--max-steps", 1), metavar="N",
                   help="refuse a ladder whose smallest step needs more than N steps (default: only the memory "
                        "limit); the default ladder is extended up to N steps (default 204800)")
    s.add_argument("--max-seconds", type=_positive("--max-seconds"), metavar="S",
                   help="CPU-time budget of each discrete run (default 600)")
    s.add_argument("--out", required=True, metavar="DIR")
    from ._common import _beside_option, progress_option
    _beside_option(s)
    progress_option(s, "tenth of the runs")
    s.set_defaults(func=cmd_converge)
    return sub


