"""Peer adapters as declarations (issue 28).  ``<peer>.py`` declares what is audited (``PEER``, ``DIST``, ``MODULE``,
``declarations()``); ``<peer>_calls.py`` holds the thin peer-side calls, importing only that peer and the stdlib, so
``_run.py`` can run them in the peer's own interpreter (``--python PEER=/work/peers/<peer>/bin/python``)."""
