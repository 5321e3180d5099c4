"""Peer adapters as declarations (the contract in :mod:`dpbounds.testing.declarations`): ``<peer>.py`` exports
``PEER``, ``DIST`` (pip distribution), ``MODULE`` (import name probed for presence and version) and
``declarations() -> list[Declaration]``; ``<peer>_calls.py`` holds the peer-side calls and imports only the peer
and the standard library, so it also runs in the peer's own interpreter (``dpbounds audit --python PEER=PATH``)."""
