"""Rich display: the SVG pictures of Young diagrams and game graphs are well-formed XML with one
box per cell / one node per position, mark exactly the P-positions (found here by an
independent brute force), and are refused beyond the documented size."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import pytest

import grundy
from grundy import _display, _grundy
from conftest import ROOT, mex

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def hooks_by_brute_force(parts):
    """Hook length of box (i, j): boxes to its right, boxes below it, and itself."""
    columns = [sum(1 for p in parts if p > j) for j in range(parts[0] if parts else 0)]
    return [[(p - j - 1) + (columns[j] - i - 1) + 1 for j in range(p)] for i, p in enumerate(parts)]


@pytest.mark.parametrize("parts", [[0], [1], [3, 1], [4, 4, 2, 1], [10, 10, 8, 6, 5, 5, 3, 1]])
def test_young_draws_one_box_per_cell_with_its_hook_length(parts):
    y = grundy.young(parts)
    parts = [p for p in parts if p]
    hooks = hooks_by_brute_force(parts)
    doc = parse(y._repr_svg_())
    boxes = doc.findall(f"{SVG}rect[@class='box']")
    assert len(boxes) == sum(parts)
    texts = [t.text for t in doc.findall(f"{SVG}text")][1:]  # after the title
    assert texts == [str(h) for row in hooks for h in row]
    cells = {(int(b.get("data-row")), int(b.get("data-column"))): b for b in boxes}
    assert set(cells) == {(i, j) for i, p in enumerate(parts) for j in range(p)}
    for (i, j), b in cells.items():
        assert (b.get("fill") == _display._EVEN_FILL) == (hooks[i][j] % 2 == 0)
    winning = doc.findall(f"{SVG}rect[@class='winning']")
    corners = {(float(b.get("y")), float(b.get("x"))): key for key, b in cells.items()}
    outlined = {corners[float(w.get("y")) - 2, float(w.get("x")) - 2] for w in winning}
    assert outlined == {(m["row"], m["column"]) for m in y["winning_moves"]}
    assert len(winning) == len(outlined)


def test_young_result_stays_the_dict_it_was():
    y = grundy.young([3, 1], core=2)
    raw = _grundy.young_partition([3, 1], False, None, 2, None, None)
    assert isinstance(y, dict) and isinstance(y, grundy.YoungDiagram)
    assert y == raw and repr(y) == repr(raw) and json.dumps(y) == json.dumps(raw)


def test_young_refuses_to_draw_beyond_the_limit():
    side = _display.MAX_DRAW_SIDE
    assert side == 150
    for parts in ([side + 1], [1] * (side + 1)):
        y = grundy.young(parts)
        assert y._repr_svg_() is None
        with pytest.raises(ValueError, match="drawn up to 150 x 150"):
            y.svg()
    doc = parse(grundy.young([side, side]).svg())
    assert len(doc.findall(f"{SVG}rect[@class='box']")) == 2 * side


def values_by_brute_force(spec):
    options = {n["id"]: n.get("options", []) for n in spec["nodes"]}
    memo = {}

    def value(u):
        if u not in memo:
            memo[u] = mex(value(v) for v in options[u])
        return memo[u]

    return {u: value(u) for u in options}


def random_dag(rng, size):
    nodes = []
    for i in range(size):
        later = [f"v{j}" for j in range(i + 1, size) if rng.random() < 0.3]
        nodes.append({"id": f"v{i}", "options": later})
    return {"nodes": nodes}


def check_graph_picture(svg, spec, outcome_of):
    doc = parse(svg)
    nodes = doc.findall(f"{SVG}g")
    assert [g.get("data-id") for g in nodes] == [n["id"] for n in spec["nodes"]]
    moves = doc.findall(f".//*[@class='move']")
    assert len(moves) == sum(len(n.get("options", [])) for n in spec["nodes"])
    shapes = {"P": SVG + "rect", "N": SVG + "ellipse", "D": SVG + "polygon"}
    for g in nodes:
        outcome = outcome_of[g.get("data-id")]
        assert g.get("data-outcome") == outcome
        assert [c.tag for c in g if c.tag in shapes.values()] == [shapes[outcome]]
    return nodes


@pytest.mark.parametrize("seed", range(6))
def test_graph_marks_exactly_the_p_positions(seed):
    rng = random.Random(seed)
    spec = random_dag(rng, rng.randrange(1, 40))
    values = values_by_brute_force(spec)
    r = grundy.graph(spec)  # without all=True: the picture evaluates every node itself
    assert isinstance(r, dict) and "nodes" not in r
    outcome_of = {u: "P" if v == 0 else "N" for u, v in values.items()}
    nodes = check_graph_picture(r._repr_svg_(), spec, outcome_of)
    assert [g.get("class") for g in nodes].count("node root") == 1
    assert nodes[0].get("class") == "node root"
    # One row per Grundy value: nodes of equal value share a height, higher values above.
    y_of = {}
    for g in nodes:
        shape = g[1]
        y = float(shape.get("y", shape.get("cy", 0)))
        y_of.setdefault(values[g.get("data-id")], set()).add(round(y))
    assert all(len(ys) == 1 for ys in y_of.values())
    heights = [y_of[v].pop() for v in sorted(y_of)]
    assert heights == sorted(heights, reverse=True)


def test_graph_from_json_text_and_with_all_keeps_its_report():
    spec = {
        "root": "a",
        "nodes": [{"id": "a", "options": ["b", "c"]}, {"id": "b", "options": ["c"]}, {"id": "c"}],
    }
    r = grundy.graph(json.dumps(spec), all=True, misere=True, dot=True)
    assert r == _grundy.graph_evaluate(spec, None, True, True, True)
    check_graph_picture(r.svg(), spec, {"a": "N", "b": "N", "c": "P"})


def test_loopy_graph_marks_p_n_and_draws_with_infinite_values():
    spec = json.loads((ROOT / "docs" / "examples" / "loopy-graph.json").read_text())
    r = grundy.graph(spec, loopy=True)
    report = grundy.graph(spec, loopy=True, all=True)["nodes"]
    outcome_of = {n["id"]: n["outcome"] for n in report}
    assert sorted(outcome_of.values()) == ["D", "D", "N", "N", "P", "P"]
    nodes = check_graph_picture(r.svg(), spec, outcome_of)
    for g, n in zip(nodes, report):
        label = [t.text for t in g.findall(f"{SVG}text")][1]
        if isinstance(n["grundy_value"], dict):
            assert label == "sg = ∞" + "".join(chr(0x2080 + int(k)) for k in n["grundy_value"]["k"])
        else:
            assert label == f"sg = {n['grundy_value']}"


def chain(size):
    return {
        "nodes": [
            {"id": str(i), "options": [str(i + 1)] if i + 1 < size else []} for i in range(size)
        ]
    }


def test_graph_refuses_to_draw_beyond_200_nodes():
    assert _display.MAX_DRAW_NODES == 200
    big = grundy.graph(chain(201))
    assert big["grundy_value"] == 0 and big._repr_svg_() is None
    with pytest.raises(ValueError, match="201 nodes; pictures are drawn up to 200"):
        big.svg()
    spec = chain(200)
    values = values_by_brute_force(spec)
    check_graph_picture(
        grundy.graph(spec).svg(), spec, {u: "P" if v == 0 else "N" for u, v in values.items()}
    )


def test_young_graph_is_drawn_as_its_evaluated_graph():
    spec = grundy.young_graph([3, 2])
    assert isinstance(spec, dict) and isinstance(spec, grundy.GraphSpec)
    assert spec == _grundy.young_graph([3, 2], False)
    values = values_by_brute_force(spec)
    check_graph_picture(
        spec._repr_svg_(), spec, {u: "P" if v == 0 else "N" for u, v in values.items()}
    )


def test_node_names_are_escaped():
    spec = {"nodes": [{"id": '<a & "b">', "options": ["x'"]}, {"id": "x'"}]}
    doc = parse(grundy.graph(spec).svg())
    assert [g.get("data-id") for g in doc.findall(f"{SVG}g")] == ['<a & "b">', "x'"]


def test_game_sequence_is_a_sequence_with_numpy_and_plot():
    import matplotlib

    matplotlib.use("Agg")
    game = grundy.Game(options=lambda n: [n - s for s in (1, 3, 4) if s <= n])
    seq = game.sequence(30)
    assert isinstance(seq, grundy.Sequence)
    assert (
        seq.to_numpy().tolist()
        == seq.values
        == grundy.subtraction_sequence(30, set=[1, 3, 4]).values
    )
    ax = seq.plot()
    xs, ys = ax.collections[0].get_offsets().T
    assert list(ys) == seq.values and list(xs) == list(range(31))
