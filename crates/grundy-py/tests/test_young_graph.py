"""Welter, Young diagrams, explicit graphs and Li's multiplayer Nim against the CLI's --json and
brute forces."""

from __future__ import annotations

import functools
import itertools
import json

import grundy
import pytest
from conftest import ROOT, mex, run_cli


@functools.lru_cache(maxsize=None)
def welter_value(squares):
    occupied = set(squares)
    return mex(
        welter_value(tuple(sorted(squares[:i] + (t,) + squares[i + 1 :])))
        for i, s in enumerate(squares)
        for t in range(s)
        if t not in occupied
    )


@pytest.mark.parametrize(
    "squares", [[2, 3, 5, 7, 11], [0, 1, 2], [4], [17, 16, 13, 10, 8, 7, 4, 1]]
)
def test_welter_matches_cli(squares):
    words = list(map(str, squares))
    assert grundy.welter(squares) == run_cli("welter", *words)
    assert grundy.welter(squares, target=3) == run_cli("welter", *words, "--target", "3")


def test_welter_against_brute_force():
    for squares in itertools.combinations(range(8), 3):
        r = grundy.welter(squares)
        assert r["grundy_value"] == welter_value(tuple(sorted(squares)))
        for m in r["winning_moves"]:
            after = tuple(sorted(m["to"] if s == m["from"] else s for s in squares))
            assert welter_value(after) == 0


def hooks(parts):
    conj = [sum(1 for p in parts if p > j) for j in range(parts[0] if parts else 0)]
    return [[parts[i] - j + conj[j] - i - 1 for j in range(parts[i])] for i in range(len(parts))]


@pytest.mark.parametrize("parts", [[10, 10, 8, 6, 5, 5, 3, 1], [3, 2, 1], [1], [4, 4], [5, 1, 1]])
def test_young_matches_cli(parts):
    text = ",".join(map(str, parts))
    r = grundy.young(parts, core=2, quotient=3, remove_hook=(0, 0))
    cli = run_cli("young", text, "--core", "2", "--quotient", "3", "--remove-hook", "0,0")
    assert r == cli
    assert r["hooks"] == hooks(parts)
    assert grundy.young(r["beta"], from_beta=True)["partition"] == parts


def test_young_values_against_welter_brute_force():
    for n in range(1, 8):
        for parts in partitions(n):
            r = grundy.young(parts)
            beta = tuple(sorted(p + len(parts) - 1 - i for i, p in enumerate(parts)))
            assert r["grundy_value"] == welter_value(beta) == r["grundy_value_by_hooks"]


def partitions(n, largest=None):
    largest = n if largest is None else largest
    if n == 0:
        yield []
        return
    for first in range(min(n, largest), 0, -1):
        for rest in partitions(n - first, first):
            yield [first] + rest


def test_graph_matches_cli():
    path = ROOT / "docs" / "examples" / "small-graph.json"
    spec = json.loads(path.read_text())
    for flags in ([], ["--all"], ["--misere"], ["--all", "--misere"], ["--root", "b"]):
        kwargs = {"all": "--all" in flags, "misere": "--misere" in flags}
        if "--root" in flags:
            kwargs["root"] = "b"
        cli = run_cli("graph", str(path), *flags)
        assert grundy.graph(spec, **kwargs) == cli
        assert grundy.graph(path.read_text(), **kwargs) == cli


def test_young_graph_values_agree_with_young():
    spec = grundy.young_graph([3, 2, 1])
    r = grundy.graph(spec, all=True)
    for node in r["nodes"]:
        parts = json.loads(node["id"])
        assert node["grundy_value"] == grundy.young(parts or [0])["grundy_value"]


def test_networkx_round_trip():
    import networkx as nx

    g = nx.DiGraph()
    g.add_edges_from([(1, 2), (2, 3), (1, 3), (3, 4)])
    spec = grundy.from_networkx(g, root=1)
    r = grundy.graph(spec, all=True)
    brute = {}
    for node in reversed(list(nx.topological_sort(g))):
        brute[str(node)] = mex(brute[str(v)] for v in g.successors(node))
    assert {n["id"]: n["grundy_value"] for n in r["nodes"]} == brute
    back = grundy.to_networkx(spec)
    assert set(back.edges) == {(str(u), str(v)) for u, v in g.edges}
    assert back.nodes["1"]["grundy_value"] == brute["1"]


@pytest.mark.parametrize("heaps", [[2, 2, 2, 1, 3], [1, 3], [2, 2, 2], [5, 6, 7]])
def test_li_matches_cli(heaps):
    cli = run_cli("multiplayer", "--players", "3", *map(str, heaps))
    r = grundy.multiplayer_li(heaps, players=3)
    assert r["oplus_m"] == cli["oplus_m"]
    # the previous player (player 2 when player 0 moves first) makes the last move
    assert r["previous_player_wins"] == (cli["last_mover"] == 2)


def cli_line_positions(cli):
    return [{"player": s["player"], "position": sorted(s["position"])} for s in cli["line"]]


@pytest.mark.parametrize(
    "heaps,kwargs,flags",
    [
        ([2, 2, 2, 1, 3], {"players": 3}, ["--players", "3"]),
        ([2, 2, 2], {"order": [1, 2, 0]}, ["--order", "1,2,0"]),
        ([1, 2], {"prefs": [[0, 2, 1], [1, 0, 2], [2, 0, 1]]}, ["--prefs", "0,2,1/1,0,2/2,0,1"]),
        ([5, 4], {"subtraction": [1, 2], "propp": True}, ["--game", "subtraction:1,2", "--propp"]),
        ([3, 4, 5], {"players": 4}, ["--players", "4"]),
        ([6, 1], {"propp": True}, ["--propp"]),
    ],
)
def test_multiplayer_matches_cli(heaps, kwargs, flags):
    cli = run_cli("multiplayer", *flags, *map(str, heaps))
    r = grundy.multiplayer(heaps, **kwargs)
    assert r["line"] == cli_line_positions(cli)
    del cli["line"], r["line"]
    assert r == cli


def test_multiplayer_two_players_is_normal_play():
    # With two players each wanting to move last, the last mover is player 0 exactly at
    # N-positions of Nim (normal play), i.e. when the nim-sum is not zero.
    for heaps in itertools.product(range(4), repeat=3):
        r = grundy.multiplayer(list(heaps), players=2)
        assert (r["last_mover"] == 0) == (grundy.nim(heaps)["grundy_value"] != 0), heaps


def retrograde(spec):
    """Win/lose/draw of every node by plain backward induction (independent of the library)."""
    options = {n["id"]: list(n.get("options", [])) for n in spec["nodes"]}
    parents = {v: [] for v in options}
    for u, opts in options.items():
        for v in opts:
            parents[v].append(u)
    left = {u: len(opts) for u, opts in options.items()}
    result = {u: "P" for u, opts in options.items() if not opts}
    queue = list(result)
    while queue:
        v = queue.pop()
        for u in parents[v]:
            if u in result:
                continue
            if result[v] == "P":
                result[u] = "N"
                queue.append(u)
            else:
                left[u] -= 1
                if left[u] == 0:
                    result[u] = "P"
                    queue.append(u)
    return {u: result.get(u, "D") for u in options}


def test_loopy_graph_matches_cli_and_retrograde():
    path = ROOT / "docs" / "examples" / "loopy-graph.json"
    spec = json.loads(path.read_text())
    for flags in ([], ["--all"]):
        cli = run_cli("graph", str(path), "--loopy", *flags)
        assert grundy.graph(spec, loopy=True, all="--all" in flags) == cli
    nodes = grundy.graph(spec, loopy=True, all=True)["nodes"]
    assert {n["id"]: n["outcome"] for n in nodes} == retrograde(spec)


def test_loopy_random_graphs_match_retrograde():
    import random

    rng = random.Random(13)
    for _ in range(300):
        size = rng.randint(1, 8)
        ids = [f"v{i}" for i in range(size)]
        spec = {
            "nodes": [
                {"id": u, "options": rng.sample(ids, rng.randint(0, min(3, size)))} for u in ids
            ]
        }
        r = grundy.graph(spec, loopy=True, all=True)
        truth = retrograde(spec)
        assert {n["id"]: n["outcome"] for n in r["nodes"]} == truth
        for n in r["nodes"]:
            value = n["grundy_value"]
            if truth[n["id"]] == "D":
                assert isinstance(value, dict) and value["infinite"] and 0 not in value["k"]
            elif isinstance(value, int):
                assert (value == 0) == (truth[n["id"]] == "P")
            else:
                assert value["infinite"] and 0 in value["k"] and truth[n["id"]] == "N"
        assert all(truth[m["to"]] == "P" for m in r["winning_moves"])


def test_loopy_graph_refuses_misere_and_acyclic_default_refuses_cycles():
    spec = {"nodes": [{"id": "a", "options": ["b"]}, {"id": "b", "options": ["a"]}]}
    assert grundy.graph(spec, loopy=True)["outcome"] == "D"
    with pytest.raises(ValueError):
        grundy.graph(spec)
    with pytest.raises(ValueError):
        grundy.graph(spec, loopy=True, misere=True)
