"""``python -m cenmcc.simulation``: see :mod:`cenmcc.simulation.command`."""

import sys

from .command import main

if __name__ == "__main__":
    sys.exit(main())
