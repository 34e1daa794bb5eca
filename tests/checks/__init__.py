"""The checks: the registry, the catalogs they read, validate on specs and game XMLs, no false alarms."""
