"""The peer declaration contract: :class:`dpbounds.testing.Declaration` (re-exported; h28's stand-in is gone)."""

from dpbounds.testing import Declaration

__all__ = ["Declaration"]
