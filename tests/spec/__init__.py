"""The spec stage: the schema, rule patterns, what a rule claims."""
