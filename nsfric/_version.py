"""The package version (ground floor: imports nothing)."""

__version__ = "0.1.0"
