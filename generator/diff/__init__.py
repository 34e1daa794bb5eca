"""What changed between two rule sets, in words a reviewer reads.

Reads two sides (variants, git revisions of one, or game XML files) as specs; gives name-keyed
changes by domain, rendered as text, Markdown or JSON (`schema.json`).
"""
