"""The real TripleA 1.9 engine: a Java harness (`java/`) that parses and plays game XMLs.

Reads built game XMLs; gives the engine's own dump of a game, all-AI play reports judged in words
(`check`), and rule scenarios that drive the engine's delegates.
"""
