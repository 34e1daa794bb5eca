"""Building games: build, the kitchen-sink and game goldens, coverage."""
