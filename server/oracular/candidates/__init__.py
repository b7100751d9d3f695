"""Oracle candidates: values, the grammar that combines them with targets, and rendering to edits."""
