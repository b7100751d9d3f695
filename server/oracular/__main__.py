"""``python -m oracular``: the same CLI as the ``oracular`` script."""

import sys

from oracular.cli.main import main

sys.exit(main())
