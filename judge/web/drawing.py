"""A rule's graph neighbourhood laid out for an SVG picture that fits a phone.

The rule sits in the middle. The nodes one link away stand on an upright
ellipse around it, half on the right, half on the left, evenly spaced from top
to bottom (the ellipse grows with their number), so that each label, written
outwards from its node, has a line of its own. The nodes two links away stand
on a wider ellipse and are labelled where a label finds room; the others are
dots with a tooltip (the page lists every link anyway). Labels are short
("VEKN › Bleed ¶2", at most LABEL_CHARS characters).

The picture's viewBox encloses every circle and label, so the template draws
it at width 100% and the browser scales it to the screen.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

FONT = 13  # label size, in the picture's units (a 390 px phone shows ~0.8 px per unit)
CHAR_WIDTH = 0.6 * FONT  # a sans-serif character at most, on average, for the label's extent
# Above and below the baseline: the text box of the tallest fallback font (the "›" and "¶"
# may come from one), measured in Chromium at 1.57 em.
ASCENT, DESCENT = 1.15 * FONT, 0.45 * FONT
ROW = ASCENT + DESCENT + 1  # vertical room of one label
LABEL_CHARS = 18
RINGS = {1: (80.0, 110.0), 2: (175.0, 200.0)}  # distance -> least (horizontal, vertical) radius
SPREAD = 0.9  # nodes stand between -0.9 and +0.9 of the vertical radius (never at the poles)
CENTER_RADIUS, NODE_RADIUS, GAP = 11, 7, 5
NUDGE, MAX_NUDGES = 2, 12  # an outer label tries this far up or down before giving up
MARGIN = 6
_PILCROW = re.compile(r"\s¶\S*$")

Box = tuple[float, float, float, float]  # left, top, right, bottom


@dataclass
class DrawnNode:
    id: str
    label: str  # the full label (tooltip)
    short: str  # the label drawn, or "" when the node is drawn unlabelled
    kind: str
    doc: str
    distance: int
    x: float
    y: float
    href: str | None
    radius: int = NODE_RADIUS
    label_x: float = 0.0
    label_y: float = 0.0
    anchor: str = "start"


@dataclass
class Drawing:
    nodes: list[DrawnNode]
    view_box: str
    font: int = FONT

    @property
    def positions(self) -> dict[str, DrawnNode]:
        return {n.id: n for n in self.nodes}


def short_label(label: str, limit: int = LABEL_CHARS) -> str:
    """"VEKN › 3. Minion Phase › Bleed ¶2" -> "VEKN › Bleed ¶2"; longer ones lose
    the middle of their title, never their book nor their paragraph number."""
    parts = label.split(" › ")
    if len(parts) > 2:
        label = f"{parts[0]} › {parts[-1]}"
    if len(label) <= limit:
        return label
    found = _PILCROW.search(label)
    tail = found.group(0) if found else ""
    return label[:max(1, limit - len(tail) - 1)].rstrip() + "…" + tail


def layout(hood: dict, href: Callable[[str], str]) -> Drawing:
    """`hood`: judge.graph.neighbourhood's answer. Glossary terms link to the paragraph
    defining them (when the neighbourhood has it)."""
    rings: dict[int, list[dict]] = {}
    for node in hood["nodes"]:
        rings.setdefault(node["distance"], []).append(node)
    defining = {e["target"]: e["source"] for e in hood["edges"] if e["kind"] == "defines"}
    drawn: list[DrawnNode] = []
    for distance, nodes in sorted(rings.items()):
        nodes.sort(key=lambda n: (n["kind"], n.get("doc") or "", n["id"]))
        points = [(0.0, 0.0)] if distance == 0 else _ring(len(nodes), *RINGS.get(distance, RINGS[2]))
        for node, (x, y) in zip(nodes, points):
            target = node["id"] if node["kind"] != "term" else defining.get(node["id"])
            drawn.append(DrawnNode(node["id"], node["label"], short_label(node["label"]), node["kind"],
                                   node.get("doc") or "", distance, round(x, 1), round(y, 1),
                                   href(target) if target else None,
                                   CENTER_RADIUS if distance == 0 else NODE_RADIUS))
    _place_labels(drawn)
    return Drawing(drawn, _view_box(drawn))


def _ring(count: int, rx: float, least_ry: float) -> list[tuple[float, float]]:
    """Points on an upright ellipse: the first half down its right side, the rest up its
    left side, each side's points a label's height apart at least."""
    right = (count + 1) // 2
    ry = max(least_ry, (right - 1) * ROW / (2 * SPREAD))
    points = []
    for side, k, sign in ((range(right), right, 1), (range(count - right), count - right, -1)):
        for i in side:
            y = 0.0 if k == 1 else ry * SPREAD * (-1 + 2 * i / (k - 1)) * sign
            points.append((sign * rx * math.sqrt(1 - (y / ry) ** 2), y))
    return points


def _place_labels(nodes: list[DrawnNode]) -> None:
    """Each label beside its node, away from the middle (the rule's own under it). A label
    overlapping a label or a circle already there moves up or down until it is clear; an
    inner ring's label keeps moving down, an outer ring's is left out if it finds no room."""
    for node in nodes:
        if node.distance == 0:
            node.label_x, node.label_y, node.anchor = node.x, node.y + node.radius + ASCENT, "middle"
            continue
        right = node.x > 0.5 or (abs(node.x) <= 0.5 and node.y < 0)
        node.anchor = "start" if right else "end"
        node.label_x = node.x + (node.radius + GAP) * (1 if right else -1)
        node.label_y = node.y + FONT * 0.35  # the text's middle level with the node's centre
    circles = {n.id: (n.x - n.radius, n.y - n.radius, n.x + n.radius, n.y + n.radius) for n in nodes}
    placed: list[Box] = []
    for node in sorted(nodes, key=lambda n: (n.distance, n.label_y)):
        obstacles = placed + [box for ident, box in circles.items() if ident != node.id]
        start = node.label_y
        moves = [0] + [s * k * NUDGE for k in range(1, MAX_NUDGES + 1) for s in (1, -1)]
        clear = next((m for m in moves if not _hits(_label_box(node, start + m), obstacles)), None)
        if clear is None and node.distance <= 1:
            clear = MAX_NUDGES * NUDGE
            while _hits(_label_box(node, start + clear), obstacles):
                clear += NUDGE
        if clear is None:
            node.short = ""
            continue
        node.label_y = round(start + clear, 1)
        placed.append(_label_box(node, node.label_y))
    for node in nodes:
        node.label_x = round(node.label_x, 1)


def _label_box(node: DrawnNode, baseline: float) -> Box:
    width = len(node.short) * CHAR_WIDTH
    left = {"start": node.label_x, "end": node.label_x - width, "middle": node.label_x - width / 2}[node.anchor]
    return left, baseline - ASCENT, left + width, baseline + DESCENT


def _hits(box: Box, others: list[Box]) -> bool:
    return any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3] for o in others)


def _view_box(nodes: list[DrawnNode]) -> str:
    xs, ys = [], []
    for n in nodes:
        xs += [n.x - n.radius, n.x + n.radius]
        ys += [n.y - n.radius, n.y + n.radius]
        if n.short:
            left, top, right, bottom = _label_box(n, n.label_y)
            xs += [left, right]
            ys += [top, bottom]
    left, top = min(xs) - MARGIN, min(ys) - MARGIN
    return f"{left:.0f} {top:.0f} {max(xs) - left + MARGIN:.0f} {max(ys) - top + MARGIN:.0f}"
