"""The app factory: the templates it loads and the globals they see."""
from __future__ import annotations






def test_templates_see_every_global_of_the_environment(app, client):
    """Template globals are a plain copy of the environment's (judge.web._TemplateEnvironment)."""
    assert client.get("/search?q=bleed").status_code == 200  # templates loaded
    env = app.jinja_env
    for name in ("base.html", "search.html", "_results.html", "_macros.html"):
        template = env.get_template(name)
        assert type(template.globals) is dict and template.globals == env.globals
    assert {"site", "site_links", "url_for"} <= set(env.globals)


def test_templates_come_from_the_configured_folder(app):
    from judge import paths
    assert app.jinja_loader.searchpath == [str(paths.templates_dir())]
    assert (paths.templates_dir() / "base.html").is_file()
