"""Installable releases: a map folder and zip, its CHANGELOG, `.properties` files, a CI workflow.

Reads the variants (compiled again, nothing from `output/`) and a base map's art; gives what a
player drops into TripleA's `downloadedMaps/`, or games added into an installed map.
"""
