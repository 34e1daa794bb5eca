"""The whole repository: layering, project hygiene, the wheel, the benchmark."""
