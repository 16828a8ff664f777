"""CLI commands of the discrete-scheme studies (``simulate``, ``converge``)."""
from __future__ import annotations


def register(sub):
    """Add the study subcommands to the ``nsfric`` parser (none yet)."""
    return sub
