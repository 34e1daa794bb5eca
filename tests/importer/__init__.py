"""import: from a TripleA XML to a spec, and round trips through the engine."""
