"""Releasing a mod: package, pictures, maps, sites, a mod repository and its CI, the client."""
