"""``nsfric export``: a reference for DEM regression tests (inputs, expected values with
tolerances, the verified error) as CSV, YAML (LAMMPS unit-test layout) or netCDF."""
from __future__ import annotations

from ._common import MAX_EXPORT_SAMPLES, _count, _positive, _progress, parse_params


def cmd_export(args):
    from .names import check_case

    check_case(args.case, args.law)  # before SymPy and SciPy load
    from ..cases import get_case
    from ..report.export import build_reference, check_format, write_reference

    case = get_case(args.case)
    law = case.check_law(args.law)
    params = parse_params(args.param)
    check_format(args.format, args.out)
    case.problem(law, params, args.t_end)  # validates the parameters before solving
    _progress(f"{case.name}/{law}: reference and cross-check")
    ref = build_reference(case, law, params, args.t_end, args.samples)
    write_reference(ref, args.out, args.format)
    _progress("")
    print(f"wrote {args.out}: {len(ref['observables'])} observables, {len(ref['events'])} events, "
          f"{len(ref['trajectory'])} samples; verified against {ref['verified_against']}: "
          f"max |difference| = {ref['verified_error']['max_abs']:.2e}")
    return 0


def register(sub):
    s = sub.add_parser("export", help="write a reference for DEM regression tests (csv, yaml, netcdf)")
    s.add_argument("case", help="a case name (see nsfric list)")
    s.add_argument("--law")
    s.add_argument("--param", action="append", metavar="NAME=VALUE")
    s.add_argument("--t-end", type=_positive("--t-end"))
    s.add_argument("--samples", type=_count("--samples", 2, MAX_EXPORT_SAMPLES), default=11,
                   help=f"trajectory samples, 2 to {MAX_EXPORT_SAMPLES} (default 11)")
    s.add_argument("--format", required=True, choices=["csv", "yaml", "netcdf"],
                   help="csv (one value per row), yaml (the layout of LAMMPS's force-style unit tests) or "
                        "netcdf (CF-1.10; needs the netcdf extra)")
    s.add_argument("--out", required=True, metavar="FILE")
    s.set_defaults(func=cmd_export)
