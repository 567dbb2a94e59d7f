"""grundy.play: the move model of `grundy play` and the web page, against the CLI's report."""

from __future__ import annotations

import pytest

import grundy
from conftest import plain, run_cli


@pytest.mark.parametrize(
    "family,position,moves,cli",
    [
        ("nim", [3, 5, 2], [], ["nim", "3", "5", "2"]),
        (
            "nim",
            [3, 5, 2],
            ["1 1", "0 2"],
            ["nim", "3", "5", "2", "--move", "1 1", "--move", "0 2"],
        ),
        ("welter", [1, 4, 7], ["7 6"], ["welter", "1", "4", "7", "--move", "7 6"]),
        ("takebreak:kayles", [5, 3], ["0 1 2"], ["takebreak:kayles", "5", "3", "--move", "0 1 2"]),
        ("cram", "3x3", ["0 0 0 1"], ["cram", "3x3", "--move", "0 0 0 1"]),
        ("chomp", "3x4", ["= 4 2 2"], ["chomp", "3x4", "--move", "= 4 2 2"]),
        ("wythoff", [4, 6], ["both -1"], ["wythoff", "4", "6", "--move", "both -1"]),
    ],
)
def test_the_report_is_the_clis(family: str, position: object, moves: list, cli: list) -> None:
    ours = grundy.play(family, position, moves)  # type: ignore[arg-type]
    theirs = run_cli("play", *cli, "--report")
    assert plain(ours) == theirs


def test_options_values_explanations_and_the_engine() -> None:
    r = grundy.play("subtraction", [7, 4], set=[1, 3, 4])
    assert r == plain(run_cli("play", "subtraction", "--set", "1,3,4", "7", "4", "--report"))
    for o in r["options"]:
        after = [int(h) for h in o["after"].split()]
        assert o["value"] == grundy.subtraction(after, set=[1, 3, 4])["grundy_value"]
        assert o["good"] == (o["value"] == 0)
    r = grundy.play("nim", [1, 2], engine="perfect")
    assert r["engine_move"]["move"] == "1 1" and r["moves_played"] == 1
    r = grundy.play("nim", [4, 4], engine="random", seed=3)
    assert r["engine_move"]["why"].startswith("a random move")


def test_bad_moves_and_arguments() -> None:
    with pytest.raises(ValueError, match=r"moves\[0\] '0 9': heap 0 has 3 tokens"):
        grundy.play("nim", [3], ["0 9"])
    with pytest.raises(ValueError, match="unknown game"):
        grundy.play("chess", [1])
    with pytest.raises(TypeError):
        grundy.play("nim", [3], [1])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="engine is 'perfect' or 'random'"):
        grundy.play("nim", [3], engine="strong")


def test_multiplayer_takes_the_clis_preferences() -> None:
    # order (GAMES(K1..KM)) and per-player prefs, as `grundy play multiplayer` and the web page
    for kw, flags in (
        ({"order": [0, 2, 1]}, ["--order", "0,2,1"]),
        ({"prefs": [[0, 1, 2], [2, 1, 0], [1, 0, 2]]}, ["--prefs", "0,1,2/2,1,0/1,0,2"]),
        ({"players": 4}, ["--players", "4"]),
    ):
        ours = grundy.play("multiplayer", [1, 2, 3], ["0 0"], **kw)  # type: ignore[arg-type]
        theirs = run_cli("play", "multiplayer", "1", "2", "3", *flags, "--move", "0 0", "--report")
        assert plain(ours) == theirs, kw
    # the preferences change the report: GAMES(0,2,1) is not Li's order
    li = grundy.play("multiplayer", [1, 2, 3], ["0 0"])
    other = grundy.play("multiplayer", [1, 2, 3], ["0 0"], order=[0, 2, 1])
    assert li["evaluation"] != other["evaluation"] or li["options"] != other["options"]
    with pytest.raises(ValueError, match="order describes 3 players but players is 4"):
        grundy.play("multiplayer", [1, 2], order=[0, 1, 2], players=4)
    with pytest.raises(ValueError, match="give order or prefs, not both"):
        grundy.play("multiplayer", [1, 2], order=[0, 1, 2], prefs=[[0, 1, 2]] * 3)
    with pytest.raises(ValueError, match="order belongs to family 'multiplayer'"):
        grundy.play("nim", [1, 2], order=[0, 1, 2])
