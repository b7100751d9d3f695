"""Java analysis: pure functions over tree-sitter trees (no LSP, no models)."""
