"""``nsfric list CASE``: what one case offers -- its laws, its parameters (default, unit,
allowed range, meaning, and the laws that have them), its initial state, the quantities
of its trajectories with their units, its scalar observables and the solvers that solve
it -- read from the case and its laws' models (SymPy, no solve)."""
from __future__ import annotations


def _param_rows(case, laws) -> tuple[list, str]:
    """``(rows, note)``: one row per distinct parameter declaration ``(name, default,
    unit, range, meaning, laws)`` in first-seen order (``laws`` empty when every law has
    it); ``note`` says why there are none (a case without a hybrid model)."""
    seen = {}
    for law in laws:
        try:
            model = case.model(law)
        except (ValueError, NotImplementedError) as e:
            return [], str(e).splitlines()[0]
        for p in model.params:
            key = (p.name, f"{p.default:g}", p.unit or "", p.range_text(), p.doc)
            seen.setdefault(key, []).append(law)
    rows = [(*key, "" if len(owners) == len(laws) else "laws: " + ", ".join(owners))
            for key, owners in seen.items()]
    return rows, ""


def _quantities(case, laws) -> tuple[list, list]:
    """States and derived quantities (union over the laws, in order), each ``name [unit]``."""
    states, outputs = {}, {}
    for law in laws:
        try:
            model = case.model(law)
        except (ValueError, NotImplementedError):
            return [], []
        states.update(dict.fromkeys(model.state_names))
        outputs.update(dict.fromkeys(model.output_names))
    return ([f"{q} [{case.unit_of(q)}]" for q in states], [f"{q} [{case.unit_of(q)}]" for q in outputs])


def _columns(rows) -> list:
    """Rows of texts as lines, each column padded to its widest entry."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


def describe(name: str, table: dict) -> list:
    """The lines ``nsfric list CASE`` prints for the case ``name`` (``table``: the
    names table of :mod:`nsfric.cli.names`, for the laws' references and the solvers).

    Raises
    ------
    ValueError
        For an unknown case, listing the known ones.
    """
    from ..cases import get_case

    case = get_case(name)
    laws = list(case.laws)
    lines = [f"{case.name}: {case.reference}", "laws:"]
    lines += _columns([(law + (" (default)" if law == case.default_law else ""), table["laws"].get(law, ""))
                       for law in laws] or [("(none)", "")])
    if case.scheme_laws:
        lines.append("laws of the discrete schemes only (no exact reference): " + ", ".join(case.scheme_laws))
    rows, note = _param_rows(case, laws)
    lines.append("parameters (name, default, unit, allowed range, meaning):" if rows else f"parameters: none ({note})")
    lines += _columns(rows) if rows else []
    if case.initial:
        lines.append("initial state: " + ", ".join(f"{s} = {p}" for s, p in case.initial.items())
                     + "; the other states start at 0")
    lines.append(f"end time: {case.t_end:g} {case.unit_of('t')} (--t-end)")
    states, outputs = _quantities(case, laws)
    if states:
        lines.append("states: " + ", ".join(states))
        lines.append("derived quantities: " + ", ".join(outputs or ["none"]))
    names = tuple(getattr(case, "observable_names", ()))
    lines.append("observables: " + (", ".join(names) if names else "none declared"))
    if case.exact_solver:
        lines.append(f"reference solvers: {case.exact_solver} (its own exact solver)")
    elif note:
        lines.append("reference solvers: none of the registered ones (no hybrid model); schemes: its own")
        return lines
    else:
        solvers = [s for s in table["solvers"] if s != "analytic" or getattr(case, "closed_form", True)]
        lines.append("reference solvers: " + ", ".join(solvers)
                     + (" (analytic: piecewise-affine laws only)" if "analytic" in solvers else ""))
    lines.append("schemes: every registered scheme (nsfric list)")
    return lines
