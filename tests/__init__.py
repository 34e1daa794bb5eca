"""The test suite, grouped as the package is: one sub-package per stage of generator/ (docs/contributing.md)."""
