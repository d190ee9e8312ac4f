"""``python -m cenmcc.simulation``: see :mod:`cenmcc.commands.simulate`."""

import sys

from cenmcc.commands.simulate import main

if __name__ == "__main__":
    sys.exit(main())
