"""``python -m kensei_ref`` is the ``kensei-ref`` command."""

import sys

from kensei_ref.cli.main import run

sys.exit(run())
