"""Shared pieces of the ``nsfric`` command: usage errors, parameter parsing, argument
types and the progress line."""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np


class UsageError(ValueError):
    """Bad command-line input (exit code 2)."""


class _StoreOnce(argparse._StoreAction):
    """``store``, but an option given twice is an error (argparse keeps the last
    silently: ``--solver ida --solver filippov`` would solve with filippov)."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = namespace.__dict__.setdefault("_given_once", set())
        if self.dest in seen:
            raise argparse.ArgumentError(self, "given more than once")
        seen.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


#: the help of the options many commands share, where a command gives none of its own
COMMON_HELP = {
    "--law": "the case's law (default: its default law; the laws: nsfric list CASE)",
    "--param": "parameter override NAME=VALUE, repeatable (names, defaults, units and ranges: "
               "nsfric list CASE)",
    "--t-end": "end time, > 0 (default: the case's)",
    "--rtol": "relative tolerance of the reference solver, > 0 (default: the solver's)",
    "--atol": "absolute tolerance of the reference solver, > 0 (default: the solver's)",
    "--solver": "reference solver (default filippov; see nsfric list)",
    "--jobs": "local worker processes",
    "--connect-timeout": "seconds to wait for the Dask scheduler's answer",
    "--fit-range": "the range of steps the observed order is fitted on (default: found automatically)",
}
#: the help of ``--out`` by its metavar
OUT_HELP = {"FILE.csv": "the CSV file to write (its JSON sidecar beside it, same name .json)",
            "DIR": "the output folder (created, or one nsfric wrote before)",
            "FILE": "the file to write (its suffix as --format)"}


def default_help(args, kwargs) -> str | None:
    """The help of a shared option (:data:`COMMON_HELP`, :data:`OUT_HELP`), with its
    default where it has one; None for any other."""
    name = args[0] if args else ""
    text = OUT_HELP.get(kwargs.get("metavar")) if name == "--out" else COMMON_HELP.get(name)
    if text and kwargs.get("default") is not None and "default" not in text:
        text += f" (default {kwargs['default']})"
    return text


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage dump
        raise UsageError(message)

    def add_argument(self, *args, **kwargs):
        """Single-valued options (the default ``store`` action) refuse repetition; a
        shared option without a help of its own gets :func:`default_help`'s."""
        if args and args[0].startswith("-") and kwargs.get("action") in (None, "store"):
            kwargs["action"] = _StoreOnce
        if kwargs.get("help") is None and default_help(args, kwargs):
            kwargs["help"] = default_help(args, kwargs)
        return super().add_argument(*args, **kwargs)

    def parse_known_args(self, args=None, namespace=None):
        ns, rest = super().parse_known_args(args, namespace)
        ns.__dict__.pop("_given_once", None)
        return ns, rest


def parse_params(items) -> dict:
    """``["k=2", "mu=0.3"]`` -> ``{"k": "2", "mu": "0.3"}`` (values validated by the model)."""
    out = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--param expects NAME=VALUE, got {item!r}")
        if name.strip() in out:
            raise UsageError(f"--param {name.strip()} given more than once")
        try:
            out[name.strip()] = float(value)
        except ValueError:
            raise UsageError(f"--param {name.strip()}: value must be a number, got {value!r}") from None
    return out


def _positive(name):
    def conv(text):
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number, got {text!r}") from None
        if not (x > 0 and np.isfinite(x)):
            raise argparse.ArgumentTypeError(f"{name} must be > 0, got {text}")
        return x
    return conv


#: the most samples of ``nsfric reference`` (:data:`nsfric.cases.base.MAX_SAMPLES`) and
#: of ``nsfric export`` (:data:`nsfric.report.export.MAX_SAMPLES`: one CSV row per value)
MAX_REFERENCE_SAMPLES = 10 ** 7
MAX_EXPORT_SAMPLES = 10 ** 6


def _count(name, lo=2, hi=None):
    def conv(text):
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None
        if n < lo:
            raise argparse.ArgumentTypeError(f"{name} must be >= {lo}, got {n}")
        if hi is not None and n > hi:
            raise argparse.ArgumentTypeError(f"{name} must be an integer from {lo} to {hi}, got {n}")
        return n
    return conv


def caught_text(caught) -> set:
    """The recorded warnings as ``"Category: message"`` lines (for a sidecar)."""
    return {f"{w.category.__name__}: {w.message}" for w in caught}


#: ``--progress`` (and ``$NSFRIC_PROGRESS``): ``plain`` writes a line per step (a case, a
#: figure, ~10 % of the points) to stderr, for logs without a terminal; ``bar`` rewrites
#: one line in place (a sweep: a rich bar on a terminal); ``none`` is silent.  Without
#: either: ``bar`` on a terminal, else ``none`` (stderr stays empty on success).
PROGRESS_MODES = ("plain", "bar", "none")
_MODE = {"progress": None}


def set_progress(option: str | None = None) -> str:
    """Set the progress mode of this command from ``--progress`` (None: not given), else
    ``$NSFRIC_PROGRESS``, else by whether stderr is a terminal; returns it."""
    mode = option or os.environ.get("NSFRIC_PROGRESS", "").strip() or None
    if mode is not None and mode not in PROGRESS_MODES:
        raise UsageError(f"NSFRIC_PROGRESS must be one of {', '.join(PROGRESS_MODES)}, got {mode!r}")
    _MODE["progress"] = mode
    return progress_mode()


def progress_mode() -> str:
    """The progress mode in force (see :data:`PROGRESS_MODES`)."""
    return _MODE["progress"] or ("bar" if sys.stderr.isatty() else "none")


def progress_option(parser, what: str):
    """``--progress {plain,bar,none}``: the option of the long commands."""
    parser.add_argument("--progress", choices=PROGRESS_MODES, metavar="MODE",
                        help=f"progress on stderr: plain (a line per {what}, for logs), bar (one line "
                             "rewritten in place), none; default: $NSFRIC_PROGRESS, else bar on a terminal "
                             "and none otherwise")


def _progress(msg):
    """Report a step (``""``: the work is done)."""
    mode = progress_mode()
    if mode == "bar":
        print(f"\r\033[K{msg}", end="", file=sys.stderr, flush=True)
    elif mode == "plain" and msg:
        print(msg, file=sys.stderr, flush=True)


def _fraction(done: int, total: int, label: str):
    """Report ``done`` of ``total`` tasks: a bar, or (plain) a line at every tenth."""
    if progress_mode() == "plain":
        step = max(total // 10, 1)
        if done == total or done % step == 0:
            print(f"{label}: {done}/{total}", file=sys.stderr, flush=True)
        return
    width = 30
    k = int(width * done / max(total, 1))
    _progress(f"{label} [{'#' * k}{'.' * (width - k)}] {done}/{total}")


def _beside_option(parser):
    """``--beside-existing``: the option of every command writing an output folder."""
    parser.add_argument("--beside-existing", action="store_true",
                        help="write into a non-empty folder that nsfric has not written to before, beside its "
                             "files (a file of the same name that nsfric did not write is still never replaced)")


def check_output_pair(out: str):
    """Validate ``--out FILE.csv`` and its JSON sidecar before any computation."""
    from ..io import check_output_path

    check_output_path(out, "--out", "file", ".csv")
    check_output_path(os.path.splitext(out)[0] + ".json", "--out (its .json sidecar)", "file")
