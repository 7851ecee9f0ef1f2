"""Measurements and the helpers the benches and tests share (not part of the
installed package): `bench.search_eval` scores a search on the gold set,
`bench.server` starts `judge serve` in a subprocess."""
