"""``python -m kensei_ref`` is the ``kensei-ref`` command."""

import sys

from .cli import main

sys.exit(main())
