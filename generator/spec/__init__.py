"""Read and combine specs: YAML with the position of every value, `extends`, templates, the model.

Reads `rules/<variant>/*.yaml`; gives the next stages a typed `Spec` (model) and the resolved tree
it came from, so every later problem can point at the file, line and column that set the value.
"""
