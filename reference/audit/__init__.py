"""Adapters that run peer DP libraries against the reference."""
