"""``python -m cenmcc COMMAND``: the commands of cenmcc, ``report`` for now
(:mod:`cenmcc.commands.report`); the simulations are ``python -m cenmcc.simulation``."""

import sys

from cenmcc.commands.report import main

if __name__ == "__main__":
    sys.exit(main())
