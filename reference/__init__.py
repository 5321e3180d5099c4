"""dpbounds.reference -- evaluation of the spec: high precision, certified enclosures, a sound fast path,
streaming filters and odometers, the B* solver, the exact worst-case engine, golden vectors and audits."""
