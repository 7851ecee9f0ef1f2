"""What the web tests share: a small HTML tree to read pages by, and the URLs and
strings they ask with. (The `app` and `client` fixtures are in conftest.py.)"""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

from jsonschema import Draft202012Validator


ROOT = Path(__file__).resolve().parent.parent


XSS = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>"


class Node:
    def __init__(self, tag: str, attrs: dict, parent=None):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, attrs, parent, [], ""

    def iter(self):
        yield self
        for child in self.children:
            yield from child.iter()

    def find_all(self, tag: str, **attrs) -> list[Node]:
        return [n for n in self.iter() if n.tag == tag and all(
            (v in n.attrs.get(k.rstrip("_"), "").split()) if k == "class_" else n.attrs.get(k) == v
            for k, v in attrs.items())]

    def full_text(self) -> str:
        return self.text + "".join(c.full_text() for c in self.children)


class _TreeBuilder(HTMLParser):
    VOID = frozenset({"meta", "link", "input", "br", "img", "hr", "source"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Node("#root", {})

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in self.VOID:
            self.current = node

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        text = Node("#text", {}, self.current)
        text.text = data
        self.current.children.append(text)


def page(response) -> Node:
    builder = _TreeBuilder()
    builder.feed(response.get_data(as_text=True))
    return builder.root


def links(node: Node) -> list[str]:
    return [a.attrs.get("href", "") for a in node.find_all("a")]


def section(tree: Node, heading_id: str) -> Node:
    """The <section> labelled by a heading id (aria-labelledby)."""
    found = [s for s in tree.find_all("section") if s.attrs.get("aria-labelledby") == heading_id]
    assert found, f"no section labelled {heading_id}"
    return found[0]


def item_url(ident: str) -> str:
    return "/p/" + quote(ident, safe="/:")


def schema_validator(client, name: str) -> Draft202012Validator:
    document = client.get("/api/openapi.json").get_json()
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": document["components"]})
