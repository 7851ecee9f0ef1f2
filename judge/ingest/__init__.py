"""Ingest: the manifest listing the rulebooks (`manifest`), one parser per source
format, all producing `judge.model.Document` through `builder`, the reference
syntax they share (`refs`), and `sources.parse_document`, which reads a source
and runs its parser."""
