"""Everything that reports problems in a spec or a game XML, all at once, as located diagnostics.

Reads a `Spec` (and the XML made from it); gives a list of `Diagnostic`s: references, options
against the engines' catalogs (`generator.catalog`), silent mistakes, the engine's DTD, the XSD.
"""
