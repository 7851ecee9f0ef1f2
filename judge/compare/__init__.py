"""The version comparer and the concordance it stands on: what changed between two
editions (or a draft), and the same rule in every edition (docs/compare.md)."""
