"""The engine harness: dumps, processes, check's all-AI play, the proofs of the ledgers and the mutation sweep."""
