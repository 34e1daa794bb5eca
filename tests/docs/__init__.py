"""The documentation site and its generated pages."""
