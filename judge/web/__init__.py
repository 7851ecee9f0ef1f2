"""The reference browser on the web: a Flask app (`judge.web.app.create_app`)
with its pages (`pages`: HTML), its JSON API under /api/ (`api`, described by
/api/openapi.json), the editor's desk (`editions`: the diff, a rule's history,
a draft's lint) and the table's scenario check with its builder (`check`),
templates from the checkout's top-level templates/ folder (or the copy bundled
in the wheel), CSS and JS from judge/web/static/.

    from judge.web.app import create_app
    from judge.web.warmup import warm
    app = create_app()            # the corpus of the configured rules directory
    app = create_app(corpus)      # or a given one (tests)
    warm(app)                     # what a server computes before its first visitor

`judge serve` (judge/commands/serve.py, tuned in judge/web/serving.py) warms it
and serves it with Granian. docs/web.md describes how it works.
"""
