"""The version comparer and the concordance it stands on (docs/compare.md).

What changed between two editions (or a draft and its edition), and the same
rule in every edition; each module is named for what it is."""
