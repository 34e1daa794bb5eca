"""Benchmarks (not timed tests): `python -m bench.check_bench`."""
