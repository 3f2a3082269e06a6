"""The witnessed log of games (docs/transparency.md): an append-only Merkle tree in the layout of
RFC 9162, its proofs, and its signed checkpoints. Pure computations: the store keeps the hashes,
the service serves them, and anyone holding a checkpoint and a proof checks it with this alone."""
