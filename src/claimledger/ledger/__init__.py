"""The ledger: its model, reading claims.yaml (YAML with positions, the schema, soundness),
editing it (locked, minimal-diff, atomic) and the workspace's config file."""
