"""The response cache in front of the app, and the ETags, 304s and HEAD answers it gives
with and without it."""
from __future__ import annotations

from urllib.parse import quote

import pytest

from judge.web.app import create_app

from web_pages import item_url


def test_answers_carry_an_etag_and_a_revisit_gets_304(client):
    first = client.get("/p/rb:6.4.6/2")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get("/p/rb:6.4.6/2", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.data
    assert again.headers["ETag"] == etag and again.headers["Content-Security-Policy"]
    assert client.get("/p/rb:6.4.6/2", headers={"If-None-Match": '"other"'}).status_code == 200


@pytest.mark.parametrize("cache_bytes", [0, 1_000_000], ids=["no cache", "cache"])
def test_etags_and_head_requests_with_and_without_the_cache(corpus, cache_bytes):
    """The ETag, the 304 on its first revisit and HEAD answers hold whether the
    cache keeps answers or not; a HEAD's headers are its GET's."""
    client = create_app(corpus, {"RESPONSE_CACHE_BYTES": cache_bytes}).test_client()
    url = "/search?q=" + quote("blood hunt") + "&kind=rule"
    head = client.head(url)  # asked first: nothing kept yet
    assert head.status_code == 200 and head.data == b""
    get = client.get(url)
    assert get.data and head.headers["ETag"] == get.headers["ETag"]
    assert int(head.headers["Content-Length"]) == len(get.data)
    assert client.get(url, headers={"If-None-Match": get.headers["ETag"]}).status_code == 304
    other = "/api/search?q=torpor"  # a revisit first seen with its ETag: no page in between
    etag = create_app(corpus).test_client().get(other).headers["ETag"]
    assert client.get(other, headers={"If-None-Match": etag}).status_code == 304
    assert client.head("/p/rb:0.0/0").status_code == 404 and "ETag" not in client.get("/p/rb:0.0/0").headers


def test_a_repeated_page_is_replayed_from_the_cache(corpus):
    app = create_app(corpus)
    cache, client = app.wsgi_app, app.test_client()
    first = client.get("/p/rb:6.4.6/2")
    hits = cache.hits
    again = client.get("/p/rb:6.4.6/2")
    assert cache.hits == hits + 1
    assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Content-Security-Policy"] == first.headers["Content-Security-Policy"]
    # The citation names the host the page was asked on: another host is another entry.
    other = client.get("/p/rb:6.4.6/2", headers={"Host": "judge.example"})
    assert b"http://judge.example/p/rb:6.4.6/2" in other.data and cache.hits == hits + 1


def test_errors_and_posts_are_never_cached(corpus):
    app = create_app(corpus)
    cache, client = app.wsgi_app, app.test_client()
    for _ in range(2):
        assert client.get("/p/rb:0.0/0").status_code == 404
        assert client.get("/search?q=bleed&limit=abc").status_code == 400
        client.post("/check", data={"scenario": "players: [a]"})
    assert cache.hits == 0 and cache.size == 0


def test_kept_answers_are_not_walked_by_the_garbage_collector():
    # Thousands of kept answers walked in every full collection made its pauses
    # (every waiting request's) ~15 ms longer: they are kept as plain tuples of strings
    # and bytes, which the collector stops tracking. So keeping 150 more answers leaves
    # the collector as many objects to walk as before. Counted in a process of its own:
    # in the suite's, each full collection walked every earlier test's objects (16 s).
    import json
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-c", _COLLECTOR_COUNT], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    counted = json.loads(run.stdout.strip().splitlines()[-1])
    assert counted["new_answers"] == 200  # each a new answer, kept
    assert counted["after"] - counted["before"] < 100  # an object per answer would be 150 more at least


# Answers kept for a rule page asked on each host (one entry each), then the objects the
# collector walks. A pass untracks a tuple once nothing in it is tracked, one level at worst:
# a few passes, as a running server's.
_COLLECTOR_COUNT = """
import gc, json
from judge.corpus import load_corpus
from judge.web.app import create_app
app = create_app(load_corpus())
client = app.test_client()

def keep(hosts):
    for host in hosts:
        assert client.get("/p/rb:6.4.6/2", headers={"Host": host}).status_code == 200
    for _ in range(4):
        gc.collect()
    return len(gc.get_objects())

kept = app.wsgi_app.misses
before = keep([f"judge{n}.example" for n in range(50)])
after = keep([f"judge{n}.example" for n in range(50, 200)])
print(json.dumps({"new_answers": app.wsgi_app.misses - kept, "before": before, "after": after}))
"""


def test_the_cache_stays_within_its_size(corpus):
    app = create_app(corpus, {"RESPONSE_CACHE_BYTES": 50_000})
    client = app.test_client()
    for ident in list(corpus.paragraphs)[:40]:
        assert client.get(item_url(ident)).status_code == 200
    assert 0 < app.wsgi_app.size <= 50_000
