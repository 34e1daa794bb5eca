"""The shipped variants: their specs and ledgers, and their rules proven in the engine (scenarios)."""
