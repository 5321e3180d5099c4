"""``python -m dpbounds.cli`` is the ``dpbounds`` command."""

import sys

from dpbounds.cli import main

sys.exit(main())
