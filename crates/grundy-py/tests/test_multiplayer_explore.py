"""grundy.multiplayer_explore against `grundy multiplayer-explore --json`: the same keys and
values (run times aside), saved tables resumed, CSV export, errors with the keyword named."""

from __future__ import annotations

import csv
import pathlib

import pytest

import grundy
from conftest import cli_error, run_cli


def _without_times(report: dict) -> dict:
    return {k: v for k, v in report.items() if not k.startswith("seconds_")}


@pytest.mark.parametrize(
    "players,args,kwargs",
    [
        (3, ["--bound", "4x9"], {"bound": "4x9"}),
        (
            4,
            ["--order", "0,2,1,3", "--bound", "4x8", "--sums", "2"],
            {"order": [0, 2, 1, 3], "bound": (4, 8), "sums": 2},
        ),
        (
            5,
            ["--order", "1,2,3,4,0", "--bound", "3x6", "--features", "2"],
            {"order": [1, 2, 3, 4, 0], "bound": "3x6", "features": 2},
        ),
    ],
)
def test_same_report_as_the_cli(players: int, args: list, kwargs: dict) -> None:
    cli = run_cli("multiplayer-explore", "--players", str(players), *args)
    py = grundy.multiplayer_explore(players, **kwargs)
    assert _without_times(py) == _without_times(cli)
    for o in py["orders"]:
        assert set(o) >= {"order", "status", "form", "checked_to", "counterexamples"}
        assert o["status"] in ("theorem", "conjecture", "no_fit")


def test_thm_4_2_is_a_theorem_and_others_are_not() -> None:
    r = grundy.multiplayer_explore(4, bound=(4, 7))
    assert len(r["orders"]) == 24
    by_order = {tuple(o["order"]): o for o in r["orders"]}
    # every rotation GAMES(i, i+1, ...) carries the paper's Thm 4.2
    for i in range(4):
        rot = tuple((i + k) % 4 for k in range(4))
        assert by_order[rot]["status"] == "theorem"
        assert "Thm 4.2" in by_order[rot]["form"]
    # a conjecture is never called a theorem
    for o in r["orders"]:
        if o["status"] == "conjecture":
            assert "[theorem" not in o["form"]


def test_tables_are_saved_resumed_and_exported(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "t.csv"
    first = grundy.multiplayer_explore(3, bound="3x5", dir=tmp_path / "tables", csv=out)
    files = sorted(p.name for p in (tmp_path / "tables").iterdir())
    assert len(files) == 6 and files[0] == "games-012-h3-n5.grmptab"
    second = grundy.multiplayer_explore(3, bound="3x5", dir=tmp_path / "tables")
    assert _without_times(first) == _without_times(second)
    rows = list(csv.reader(out.open()))
    assert rows[0][:3] == ["heaps", "g012", "g021"]
    assert len(rows) == 1 + 56  # C(5 + 3, 3) positions
    assert rows[1] == ["", "2", "2", "2", "2", "2", "2"]  # terminal: the previous player


def test_errors_name_the_keyword() -> None:
    with pytest.raises(ValueError, match="bound 'six' is not of the form KxN"):
        grundy.multiplayer_explore(4, bound="six")
    with pytest.raises(ValueError, match="features must be between 1 and 3"):
        grundy.multiplayer_explore(4, bound="3x3", features=4)
    with pytest.raises(ValueError, match="not a permutation"):
        grundy.multiplayer_explore(3, order=[0, 0, 1])
    with pytest.raises(ValueError, match="tables are made for 2 to 8 players"):
        grundy.multiplayer_explore(9)
    with pytest.raises(TypeError):
        grundy.multiplayer_explore(3, bound=[3, 3])  # type: ignore[arg-type]
    assert "is not of the form KxN" in cli_error(
        "multiplayer-explore", "--players", "4", "--bound", "six"
    )
