"""``nsfric export``: a reference for DEM regression tests (inputs, expected values with
tolerances, the verified error) as CSV, YAML (LAMMPS unit-test layout) or netCDF; or a test LAMMPS's own harness runs."""
from __future__ import annotations

from ._common import MAX_EXPORT_SAMPLES, UsageError, _count, _positive, _progress, parse_params


def cmd_export(args):
    from .names import check_case

    check_case(args.case, args.law)  # before SymPy and SciPy load
    from ..cases import get_case
    from ..report.export import build_reference, check_format, write_reference

    case = get_case(args.case)
    law = case.check_law(args.law)
    params = parse_params(args.param)
    check_format(args.format, args.out)
    if args.format == "lammps-unittest":
        return _lammps_unittest(case, law, params, args)
    case.problem(law, params, args.t_end)  # validates the parameters before solving
    _progress(f"{case.name}/{law}: reference and cross-check")
    ref = build_reference(case, law, params, args.t_end, args.samples)
    write_reference(ref, args.out, args.format)
    _progress("")
    print(f"wrote {args.out}: {len(ref['observables'])} observables, {len(ref['events'])} events, "
          f"{len(ref['trajectory'])} samples; verified against {ref['verified_against']}: "
          f"max |difference| = {ref['verified_error']['max_abs']:.2e}")
    return 0


def _lammps_unittest(case, law, params, args):
    """``--format lammps-unittest``: the force-style unit test of
    :mod:`nsfric.adapters.lammps_unittest` (case ``oblique-impact``, law ``d-sds``)."""
    from ..adapters import lammps_unittest as U
    from ..io import atomic_files

    if case.name != "oblique-impact" or law != "d-sds":
        raise UsageError("--format lammps-unittest writes a test of pair gran/hooke/history on the case "
                         f"oblique-impact with --law d-sds, not {case.name}/{law}")
    if args.t_end is not None:
        raise UsageError("--format lammps-unittest runs the harness's 4 steps: --t-end does not apply")
    _progress(f"{case.name}/{law}: the state, its exact force and LAMMPS's 4 steps")
    exp = U.expected(params)
    with atomic_files(args.out) as (tmp,):
        with open(tmp, "w") as f:
            f.write(U.unittest_yaml(exp, "nsfric export --format lammps-unittest"))
    _progress("")
    print(f"wrote {args.out}: LAMMPS force-style unit test of {U.STYLE}, 2 spheres in mode {exp['mode']}, "
          f"dt = {exp['dt']:.6g} s; run it in LAMMPS's unittest/force-styles (test_pair_style {args.out})")
    return 0


def register(sub):
    s = sub.add_parser("export", help="write a reference for DEM regression tests (csv, yaml, netcdf)")
    s.add_argument("case", help="a case name (see nsfric list)")
    s.add_argument("--law")
    s.add_argument("--param", action="append", metavar="NAME=VALUE")
    s.add_argument("--t-end", type=_positive("--t-end"))
    s.add_argument("--samples", type=_count("--samples", 2, MAX_EXPORT_SAMPLES), default=11,
                   help=f"trajectory samples, 2 to {MAX_EXPORT_SAMPLES} (default 11)")
    s.add_argument("--format", required=True, choices=["csv", "yaml", "netcdf", "lammps-unittest"],
                   help="csv (one value per row), yaml (the layout of LAMMPS's force-style unit tests), "
                        "netcdf (CF-1.10; needs the netcdf extra) or lammps-unittest (a test LAMMPS's own harness "
                        "runs: pair gran/hooke/history on oblique-impact, forces from the exact law)")
    s.add_argument("--out", required=True, metavar="FILE")
    s.set_defaults(func=cmd_export)
