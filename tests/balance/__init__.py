"""The balance lab: statistics, studies, pairing, what a rule is worth."""
