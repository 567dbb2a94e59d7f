"""Rich display in notebooks: Young diagrams and game graphs drawn as SVG.

The results stay the dicts of the CLI's ``--json`` (these classes are ``dict`` subclasses: keys,
equality and ``repr`` are unchanged); they add ``svg()``, which returns the picture as SVG text,
and ``_repr_svg_()``, which Jupyter and IPython call to show it. Pictures have a size limit
(:data:`MAX_DRAW_SIDE` rows or columns of a diagram, :data:`MAX_DRAW_NODES` nodes of a graph):
beyond it ``svg()`` raises ``ValueError`` and ``_repr_svg_()`` returns ``None``, so a notebook
shows the plain text instead. Plain SVG text, no dependency.
"""

from __future__ import annotations

from . import _grundy


def _escape(text: str) -> str:
    # html (and the re/enum it pulls in) is imported on first drawing, not by `import grundy`.
    import html

    return html.escape(text)


# typing is only read by type checkers: not importing it halves `import grundy`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Tuple

#: Largest Young diagram drawn, in rows and in columns (the library's, as the CLI's ``young --svg``).
MAX_DRAW_SIDE: int = _grundy.MAX_PICTURE_SIDE
#: Largest game graph drawn, in nodes.
MAX_DRAW_NODES = 200

_CELL = 36
_MARGIN = 12
_TITLE = 30
_EVEN_FILL = "#deebf7"  # the CLI's shade for boxes with an even hook length


def _text(x: float, y: float, s: str, size: int, anchor: str = "middle", extra: str = "") -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-family="DejaVu Sans, Helvetica, sans-serif" '
        f'font-size="{size}" text-anchor="{anchor}" dominant-baseline="central"{extra}>'
        f"{_escape(s)}</text>"
    )


def _svg(width: float, height: float, body: List[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">'
        f'<rect width="100%" height="100%" fill="white"/>' + "".join(body) + "</svg>"
    )


def _as_svg(obj: Any) -> Optional[str]:
    try:
        return obj.svg()
    except ValueError:
        return None


class YoungDiagram(dict):
    """The result of :func:`grundy.young` (a dict, with the keys of ``grundy young --json``),
    drawn in notebooks with what the CLI's ``young --svg`` shows (the library's
    ``young::picture``, shared by both): the diagram in English notation (first row on top),
    each box with its hook length, boxes of even hook length shaded (the moves of the even-hook
    game, hook paper Theorem 4); here also the boxes whose hook is a winning move to remove,
    outlined in red.
    """

    def svg(self) -> str:
        """The diagram as SVG text; ``ValueError`` beyond :data:`MAX_DRAW_SIDE` rows or columns."""
        parts: List[int] = self["partition"]
        boxes = _grundy.young_picture(parts)
        cols = parts[0] if parts else 0
        title = f"{self['boxes']} boxes, grundy value {self['grundy_value']} ({self['outcome']})"
        widest = max((len(str(b["hook_length"])) for b in boxes), default=1)
        size = {1: 16, 2: 16, 3: 13, 4: 10}.get(widest, 8)
        top = _MARGIN + _TITLE
        body = [_text(_MARGIN, _MARGIN + _TITLE / 2 - 4, title, 16, "start")]
        outlines = []
        for b in boxes:
            i, j = b["row"], b["column"]
            x, y = _MARGIN + j * _CELL, top + i * _CELL
            fill = _EVEN_FILL if b["even_hook"] else "white"
            body.append(
                f'<rect class="box" data-row="{i}" data-column="{j}" x="{x}" y="{y}" '
                f'width="{_CELL}" height="{_CELL}" fill="{fill}" stroke="black"/>'
            )
            body.append(_text(x + _CELL / 2, y + _CELL / 2, str(b["hook_length"]), size))
            if b["winning"]:
                outlines.append(
                    f'<rect class="winning" x="{x + 2}" y="{y + 2}" width="{_CELL - 4}" '
                    f'height="{_CELL - 4}" fill="none" stroke="#c0392b" stroke-width="2.5"/>'
                )
        width = max(2 * _MARGIN + cols * _CELL, 2 * _MARGIN + 8 * len(title))
        height = 2 * _MARGIN + _TITLE + max(len(parts), 1) * _CELL
        return _svg(width, height, body + outlines)

    def _repr_svg_(self) -> Optional[str]:
        return _as_svg(self)


_NODE_W = 96
_NODE_H = 40
_GAP_X = 24
_GAP_Y = 56
_LABEL_W = 56
_MAX_ID = 14
_TOP = _MARGIN + 40  # room above the first row for arcs between its nodes


def _value_text(value: Any) -> str:
    if isinstance(value, dict):
        return "∞" + "".join(_SUBSCRIPT.get(c, c) for c in ",".join(map(str, value["k"])))
    return str(value)


_SUBSCRIPT = {str(d): chr(0x2080 + d) for d in range(10)}


def _layer_of(value: Any) -> Tuple[int, int]:
    """Finite values first by value, the infinite ones (loopy graphs) after them."""
    return (1, 0) if isinstance(value, dict) else (0, value)


def _outcome(node: Dict[str, Any]) -> str:
    if "outcome" in node:
        return node["outcome"]
    return "P" if node["grundy_value"] == 0 else "N"


class GameGraph(dict):
    """The result of :func:`grundy.graph` (a dict, with the keys of ``grundy graph --json``),
    drawn in notebooks: one row of nodes per Grundy value (value 0 at the bottom, the infinite
    values of a loopy graph on top, labelled ∞ with K as a subscript), P-positions as boxes and
    N-positions as ellipses (as in the ``dot`` output), draws as dashed diamonds, the root in
    bold, and an arrow for every move. Graphs of more than :data:`MAX_DRAW_NODES` nodes are not
    drawn.
    """

    def __init__(self, result: Dict[str, Any], spec: Any, root: Optional[str], loopy: bool):
        super().__init__(result)
        self._spec = spec
        self._root = root
        self._loopy = loopy

    def svg(self) -> str:
        """The graph as SVG text; ``ValueError`` beyond :data:`MAX_DRAW_NODES` nodes."""
        from . import _graph

        import json

        spec = json.loads(self._spec) if isinstance(self._spec, str) else self._spec
        count = len(spec["nodes"])
        if count > MAX_DRAW_NODES:
            raise ValueError(
                f"the graph has {count} nodes; pictures are drawn up to {MAX_DRAW_NODES} "
                "(graph(..., dot=True) gives Graphviz text)"
            )
        nodes = self.get("nodes")
        if nodes is None:
            nodes = _graph.graph(spec, root=self._root, all=True, loopy=self._loopy)["nodes"]
        return _draw_graph(spec, nodes, self["root"])

    def _repr_svg_(self) -> Optional[str]:
        return _as_svg(self)


class GraphSpec(dict):
    """A game graph given by its nodes and options (the result of :func:`grundy.young_graph`),
    drawn in notebooks as :func:`grundy.graph` of it is (see :class:`GameGraph`)."""

    def svg(self) -> str:
        """The evaluated graph as SVG text; ``ValueError`` beyond :data:`MAX_DRAW_NODES` nodes."""
        from . import _graph

        return _graph.graph(dict(self)).svg()

    def _repr_svg_(self) -> Optional[str]:
        return _as_svg(self)


def _draw_graph(spec: Dict[str, Any], nodes: List[Dict[str, Any]], root: str) -> str:
    layers = sorted({_layer_of(n["grundy_value"]) for n in nodes}, reverse=True)
    row_of = {layer: r for r, layer in enumerate(layers)}
    place: Dict[str, Tuple[float, float]] = {}
    per_row = [0] * len(layers)
    for n in nodes:
        r = row_of[_layer_of(n["grundy_value"])]
        x = _MARGIN + _LABEL_W + per_row[r] * (_NODE_W + _GAP_X) + _NODE_W / 2
        y = _TOP + r * (_NODE_H + _GAP_Y) + _NODE_H / 2
        per_row[r] += 1
        place[n["id"]] = (x, y)
    width = 2 * _MARGIN + _LABEL_W + max(per_row, default=0) * (_NODE_W + _GAP_X)
    height = _TOP + _MARGIN + len(layers) * (_NODE_H + _GAP_Y) - _GAP_Y
    body = [
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#555"/></marker></defs>'
    ]
    for layer, r in row_of.items():
        label = "∞" if layer[0] else f"sg {layer[1]}"
        body.append(
            _text(
                _MARGIN,
                _TOP + r * (_NODE_H + _GAP_Y) + _NODE_H / 2,
                label,
                12,
                "start",
                ' fill="#555"',
            )
        )
    for node in spec["nodes"]:
        for option in node.get("options", []):
            body.append(_edge(place[node["id"]], place[option]))
    for n in nodes:
        body.append(_node(n, place[n["id"]], n["id"] == root))
    return _svg(width, height, body)


def _edge(a: Tuple[float, float], b: Tuple[float, float]) -> str:
    style = 'fill="none" stroke="#555" marker-end="url(#arrow)"'
    (x0, y0), (x1, y1) = a, b
    if a == b:  # a move to itself: a loop out of the node's right side and back
        x, y = x0 + _NODE_W / 2, y0 - 6
        return f'<path class="move" d="M{x:g},{y:g} c 22,-16 22,28 0,12" {style}/>'
    if y0 == y1 and abs(x1 - x0) > _NODE_W + _GAP_X + 1:
        # Between nodes of one row that are not neighbours: an arc above the nodes between.
        top = y0 - _NODE_H / 2
        lift = min(_GAP_Y - 8, 12 + abs(x1 - x0) / 12)
        return (
            f'<path class="move" d="M{x0:g},{top:g} Q{(x0 + x1) / 2:g},{top - 2 * lift:g} '
            f'{x1:g},{top:g}" {style}/>'
        )
    # Leave and enter each node at its border (its bounding box), so arrow heads stay visible.
    dx, dy = x1 - x0, y1 - y0
    scale = max(abs(dx) / (_NODE_W / 2), abs(dy) / (_NODE_H / 2), 1e-9)
    ux, uy = dx / scale, dy / scale
    return (
        f'<line class="move" x1="{x0 + ux:.1f}" y1="{y0 + uy:.1f}" x2="{x1 - ux:.1f}" '
        f'y2="{y1 - uy:.1f}" {style}/>'
    )


def _node(n: Dict[str, Any], at: Tuple[float, float], is_root: bool) -> str:
    x, y = at
    outcome = _outcome(n)
    width = 2.5 if is_root else 1
    paint = f'fill="white" stroke="black" stroke-width="{width}"'
    hw, hh = _NODE_W / 2, _NODE_H / 2
    if outcome == "P":
        shape = (
            f'<rect x="{x - hw:g}" y="{y - hh:g}" width="{_NODE_W}" height="{_NODE_H}" {paint}/>'
        )
    elif outcome == "N":
        shape = f'<ellipse cx="{x:g}" cy="{y:g}" rx="{hw:g}" ry="{hh:g}" {paint}/>'
    else:
        shape = (
            f'<polygon points="{x - hw:g},{y:g} {x:g},{y - hh:g} {x + hw:g},{y:g} {x:g},{y + hh:g}" '
            f'{paint} stroke-dasharray="4 3"/>'
        )
    name = n["id"] if len(n["id"]) <= _MAX_ID else n["id"][: _MAX_ID - 1] + "…"
    value = "sg = " + _value_text(n["grundy_value"])
    root = " root" if is_root else ""
    return (
        f'<g class="node{root}" data-id="{_escape(n["id"])}" '
        f'data-outcome="{outcome}"><title>{_escape(n["id"])}</title>{shape}'
        + _text(x, y - 7, name, 11)
        + _text(x, y + 8, value, 11)
        + "</g>"
    )
