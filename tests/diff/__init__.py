"""diff: official games, variants, revisions, a reviewer's reading."""
