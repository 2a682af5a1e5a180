"""``python -m obelisk.cli``: the ``obelisk`` command without the installed console script."""

import sys

from obelisk.cli import main

if __name__ == "__main__":  # the command modules are imported to register them; this one must not run then
    sys.exit(main())
