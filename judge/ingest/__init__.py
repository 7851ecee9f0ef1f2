"""Ingest: read the manifest and parse each rulebook into the model.

`manifest` lists the rulebooks; one parser per source format produces
`judge.model.Document` through `builder`, sharing the reference syntax of
`refs`; `sources.parse_document` reads a source and runs its parser."""
