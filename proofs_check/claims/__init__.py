"""Claim modules, one per source; importing a module registers its claims."""
