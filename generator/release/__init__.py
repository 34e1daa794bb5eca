"""Installable releases, by subject: `maps` (the base map), `package` (folder, zip, overlay, play),
`pictures`, `repo` (a mod maker's repository and its CI) and `site` (a variant's web pages).

Reads the variants (compiled again, nothing from `output/`) and a base map's art; gives what a
player drops into TripleA's `downloadedMaps/`, or games added into an installed map.
"""
