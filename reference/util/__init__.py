"""dpbounds.util -- small helpers with no dependency on the rest: atomic file output, progress lines."""
