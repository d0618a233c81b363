"""What every stage reads and builds: gast node builders and walks, Prims (what a
normalized statement computes), rule templates, the compiler's vocabulary, comment
markers, and user text made safe for generated source (quoting)."""
