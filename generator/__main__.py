"""`python -m generator` runs the triplea-forge command."""

from generator.cli import cli

cli()
