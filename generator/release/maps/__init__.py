"""Where a package's base map comes from and how a map is fetched: a folder, a `-master.zip`,
the player's maps folder, or TripleA's map index (`map get`).
"""
