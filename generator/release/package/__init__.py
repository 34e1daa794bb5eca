"""A release as players get it: the built variants with a base map's art as one map folder and
zip, or added into an installed map; its CHANGELOG, `.properties` files, and playing it.
"""
