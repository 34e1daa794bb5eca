"""The pictures a release carries and the CLI shows: the starting board, a diff on the board,
unit pictures a map lacks, each PNG the same bytes on every run.
"""
