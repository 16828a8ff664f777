"""``python -m nsfric.cli``: the ``nsfric`` command."""
import sys

from . import main

sys.exit(main())
