"""dpbounds.proofs_check -- every constant and derivation step of the sources, with a verdict."""
