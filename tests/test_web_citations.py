"""Citations people can paste (issue 25): the site's public address in every copied form and in the
API, the vekn.net address of the current book's rules, and `judge serve --public-url`."""
from __future__ import annotations

import pytest

from judge import lookup
from judge.web.app import create_app
from judge.web.citations import BadPublicUrl, checked_public_url

from web_pages import links, page


@pytest.fixture(scope="module")
def public_client(corpus):
    return create_app(corpus, {"PUBLIC_URL": "https://judge.example.org/"}).test_client()


def _copies(tree) -> dict[str, str]:
    return {b.attrs["data-format"]: b.attrs["data-copy"] for b in tree.find_all("button", class_="copy")}


def test_every_copied_form_names_the_public_address_not_the_visitor_s_host(public_client, corpus):
    para = corpus.paragraphs["rb:6.4.6/2"]
    response = public_client.get("/p/rb:6.4.6/2", headers={"Host": "127.0.0.1:8080"})
    copies = _copies(page(response))
    assert set(copies) == {"plain", "markdown", "chat"}
    url = "https://judge.example.org/p/rb:6.4.6/2"
    assert copies["plain"] == f"{para.label} — {url}"
    assert copies["markdown"] == f"[{para.label}]({url})"
    # chat: the rule quoted, then the label in bold and the link in <> (no preview card in Discord)
    first, last = copies["chat"].split("\n")
    assert first.startswith("> " + para.text.split()[0]) and last == f"— **{para.label}** <{url}>"
    assert "127.0.0.1" not in response.get_data(as_text=True)


def test_without_a_public_address_the_visitor_s_is_used_and_named_local(client):
    tree = page(client.get("/p/rb:6.4.6/2", headers={"Host": "judge.lan:8080"}))
    assert _copies(tree)["plain"] == "RB §6.4.6 ¶2 — http://judge.lan:8080/p/rb:6.4.6/2 (local copy)"


def test_without_a_public_address_the_current_book_s_citation_leads_with_vekn_net(client):
    tree = page(client.get("/p/vekn:bleed/2", headers={"Host": "127.0.0.1:8080"}))
    vekn = "https://www.vekn.net/rulebook/4-detailed-turn-sequence#bleed"
    local = "http://127.0.0.1:8080/p/vekn:bleed/2"
    copies = _copies(tree)
    assert copies["plain"].split(" — ", 1)[1] == f"{vekn} (local copy: {local})"
    assert copies["markdown"].endswith(f"]({vekn}) ([local copy]({local}))")
    assert f"<{vekn}> · local copy: <{local}>" in copies["chat"]
    shown = tree.find_all("p", class_="cite-text")[0]
    assert links(shown) == [vekn, local] and "local copy" in shown.full_text()
    data = client.get("/api/paragraph/vekn:bleed/2").get_json()["citation"]
    assert data["local"] is True and data["plain"].startswith("VEKN") and vekn in data["plain"].split("(")[0]


def test_the_current_book_s_rules_carry_their_vekn_net_address(public_client, corpus):
    data = public_client.get("/api/paragraph/vekn:bleed/2").get_json()["citation"]
    assert data["url"] == "https://judge.example.org/p/vekn:bleed/2"
    assert data["vekn_url"] == "https://www.vekn.net/rulebook/4-detailed-turn-sequence#bleed"
    assert data["vekn_url"] in data["plain"] and f"([vekn.net]({data['vekn_url']}))" in data["markdown"]
    tree = page(public_client.get("/p/vekn:bleed/2"))
    assert data["vekn_url"] in [a.attrs.get("href") for a in tree.find_all("a")]
    # an older edition's rule is not on vekn.net
    assert public_client.get("/api/paragraph/rb:6.4.6/2").get_json()["citation"]["vekn_url"] is None


def test_every_vekn_net_address_leads_back_to_the_rule_or_its_section(public_client, corpus):
    site = public_client.application.extensions["judge"]
    checked = 0
    for item in [*corpus.documents["vekn"].paragraphs, *corpus.documents["vekn"].sections]:
        url = site.vekn_url(item.id)
        if url is None:
            continue
        found = lookup.find(corpus, url)
        assert found is not None, (item.id, url)
        assert found.id == item.id or found.id in {s.id for s in corpus.section_path(item.id)}, (item.id, url, found.id)
        checked += 1
    assert checked > 800


@pytest.mark.parametrize("bad", ["example.org", "ftp://example.org", "https://", "https://example.org/?x=1",
                                 "https://example.org/#top", "https://example.org:99999", "https://example.org:abc",
                                 "https://example.org:0", "https://judge example.org", "https://example.org/a b",
                                 "https://user:secret@example.org", "https://-bad-.example.org",
                                 "https://example.org/\tx"])
def test_a_public_address_that_is_no_web_address_is_refused(bad, corpus):
    with pytest.raises(BadPublicUrl):
        checked_public_url(bad)
    with pytest.raises(BadPublicUrl):
        create_app(corpus, {"PUBLIC_URL": bad})


def test_the_environment_variable_sets_the_public_address(corpus, monkeypatch):
    monkeypatch.setenv("JUDGE_PUBLIC_URL", "https://env.example.org")
    client = create_app(corpus).test_client()
    assert client.get("/api/paragraph/rb:6.4.6/2").get_json()["citation"]["url"] == \
        "https://env.example.org/p/rb:6.4.6/2"
    monkeypatch.setenv("JUDGE_PUBLIC_URL", "not a url")
    with pytest.raises(BadPublicUrl, match="JUDGE_PUBLIC_URL"):
        create_app(corpus)


def test_judge_serve_refuses_a_bad_public_url_before_loading(runner):
    from judge.cli import cli
    result = runner.invoke(cli, ["serve", "--public-url", "example.org", "--port", "0"])
    assert result.exit_code == 2 and "--public-url" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("good", ["https://judge.example.org", "http://192.168.1.20:8080", "http://[::1]:8080/judge/",
                                  "https://bücher.example/regeln", "http://localhost:8080"])
def test_a_public_address_a_browser_opens_is_taken(good):
    assert checked_public_url(good) == good.rstrip("/")


def test_card_and_ruling_copies_name_the_public_address_never_a_forged_host(public_client, client):
    """Issue 34: card pages put the request's Host into the text people copy."""
    forged = {"Host": "evil.example"}
    card = page(public_client.get("/card/govern-the-unaligned", headers=forged))
    copied = [b.attrs["data-copy"] for b in card.find_all("button", class_="copy")]
    assert copied and all("evil.example" not in c for c in copied)
    assert any(c.endswith(" — https://judge.example.org/card/govern-the-unaligned") for c in copied)
    rulings = public_client.get("/rulings?card=govern+the+unaligned", headers=forged)
    assert rulings.status_code == 200 and b"evil.example" not in rulings.data
    # With no public address, the rule documented for rule pages: the address the visitor used.
    card = page(client.get("/card/govern-the-unaligned", headers={"Host": "judge.lan:8080"}))
    assert any(b.attrs["data-copy"].endswith(" — http://judge.lan:8080/card/govern-the-unaligned")
               for b in card.find_all("button", class_="copy"))
