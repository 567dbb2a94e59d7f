"""Explicit game graphs: evaluate them, and convert to and from networkx (optional)."""

from __future__ import annotations

# typing is only read by type checkers: not importing it halves `import grundy`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Hashable, Optional, Union

    GraphSpec = Dict[str, Any]

from . import _grundy
from ._display import GameGraph


def graph(
    spec: Union[str, GraphSpec],
    *,
    root: Optional[str] = None,
    all: bool = False,
    misere: bool = False,
    dot: bool = False,
    loopy: bool = False,
) -> GameGraph:
    """Evaluate an explicit game graph: the JSON text of ``grundy graph`` files or the same
    structure as dicts, ``{"root": "a", "nodes": [{"id": "a", "options": ["b"]}, ...]}``
    (root defaults to the first node). Unknown options and duplicate ids are refused; so are
    cycles, unless ``loopy=True``.

    With ``loopy=True`` (``grundy graph --loopy``) the graph may have cycles and the result is
    the generalized Sprague-Grundy value: ``grundy_value`` is an int or
    ``{"infinite": True, "k": [...]}`` (the value infinity(K)), ``outcome`` is ``"P"``, ``"N"``
    or ``"D"`` (a draw), ``winning_moves`` are ``{"to", "wins_within"}`` (moves that end the
    game within that many moves), ``drawing_moves`` keep a draw; ``misere`` is refused there.

    Returns ``root``, ``grundy_value``, ``outcome``, ``winning_moves`` (ids of the options of
    value 0); ``nodes`` (every node's value) with ``all=True``; ``misere_outcome`` with
    ``misere=True``; ``dot`` (Graphviz text, P-positions boxed) with ``dot=True``.

    The result is a dict (a :class:`grundy.GameGraph`) that a notebook shows as a picture:
    one row of nodes per Grundy value, P-positions boxed as in ``dot``; ``.svg()`` gives the
    SVG text. Graphs of more than 200 nodes show as text only.

    >>> graph({"nodes": [{"id": "a", "options": ["b"]}, {"id": "b"}]})["grundy_value"]
    1
    """
    if not isinstance(spec, (str, dict)):
        raise TypeError(
            f"a game graph is a dict or its JSON text, not {type(spec).__name__} "
            "(networkx graphs: grundy.from_networkx(G))"
        )
    if root is not None and not isinstance(root, str):
        raise TypeError(f"root must be a node id (str), not {type(root).__name__}")
    if loopy:
        if misere:
            raise ValueError("misère play is not defined here for loopy graphs: drop misere=True")
        result = _grundy.loopy_graph_evaluate(spec, root, bool(all), bool(dot))
    else:
        result = _grundy.graph_evaluate(spec, root, bool(all), bool(misere), bool(dot))
    return GameGraph(result, spec, root, bool(loopy))


def from_networkx(g: Any, root: Optional[Hashable] = None) -> GraphSpec:
    """The game graph of a networkx ``DiGraph`` (an edge u -> v is a move from u to v), for
    :func:`graph`. Node ids are ``str(node)``; ``root`` defaults to the first node."""
    nodes = list(g.nodes)
    ids = {node: str(node) for node in nodes}
    if len(set(ids.values())) != len(ids):
        raise ValueError("two nodes of the graph have the same text (str(node)); rename them")
    if not g.is_directed():
        raise ValueError("a game graph is directed: give a networkx DiGraph")
    spec: GraphSpec = {
        "nodes": [{"id": ids[u], "options": [ids[v] for v in g.successors(u)]} for u in nodes]
    }
    if root is not None:
        if root not in ids:
            raise ValueError(f"root {root!r} is not a node of the graph")
        spec["root"] = ids[root]
    return spec


def to_networkx(spec: Union[str, GraphSpec]) -> Any:
    """A networkx ``DiGraph`` of a game graph (needs networkx), each node labelled with its
    ``grundy_value`` and ``outcome``; the graph's ``root`` attribute names the root."""
    import json

    from . import _optional

    nx = _optional.need("networkx", "to_networkx()")

    parsed: Dict[str, Any] = json.loads(spec) if isinstance(spec, str) else spec
    result = graph(parsed, all=True)  # type: ignore[arg-type]
    g = nx.DiGraph(root=result["root"])
    for node in result["nodes"]:
        value = node["grundy_value"]
        g.add_node(node["id"], grundy_value=value, outcome="P" if value == 0 else "N")
    for node in parsed["nodes"]:
        for option in node.get("options", []):
            g.add_edge(node["id"], option)
    return g
