"""A variant's pages (`triplea-forge site`, `serve`): its board, units and rules as players read them.

Read from what the other commands compute (the board `preview` draws, `diff`'s words, the rules
`coverage` lists, `check`'s evidence, a balance study's charts) and filled into templates/site/.
"""
