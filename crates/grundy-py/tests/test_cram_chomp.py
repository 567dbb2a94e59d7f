"""grundy.cram and grundy.chomp: the same dicts as `grundy cram/chomp --json`, the values and
winning moves of a plain Python brute force on small boards, the CLI's messages on bad input,
progress and Ctrl-C."""

from __future__ import annotations

import _thread
import functools
import threading
import time

import grundy
import pytest
from conftest import cli_error, mex, run_cli

BOARDS = ["...\n.#.\n...\n", "#..#\n....\n....\n#..#\n", ".....\n..#..\n", "..\n.\n...\n"]


@pytest.mark.parametrize(
    "args,kwargs",
    [
        (("1x1",), {}),
        (("2x3",), {}),
        (("3x4",), {}),
        (("4x4",), {}),  # decided by the symmetry theorem
        (("3x5",), {"outcome_only": True}),
        (("4x5",), {"moves": False}),
        (("4x5",), {"memory": "4K"}),  # a full table replaces entries
        (("3x6",), {"outcome_only": True, "moves": False}),
    ],
)
def test_cram_equals_the_cli(args, kwargs):
    flags = {"outcome_only": ["--outcome-only"], "moves": ["--no-moves"]}
    cli = [*args]
    for k, v in kwargs.items():
        cli += ["--memory", v] if k == "memory" else flags[k]
    assert grundy.cram(*args, **kwargs) == run_cli("cram", *cli)
    r, c = (int(x) for x in args[0].split("x"))
    assert grundy.cram(r, c, **kwargs) == run_cli("cram", *cli)


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("extra", [[], ["--outcome-only"], ["--no-moves"]])
def test_cram_boards_equal_the_cli(tmp_path, board, extra):
    path = tmp_path / "board.txt"
    path.write_text(board)
    got = grundy.cram(
        board=board, outcome_only="--outcome-only" in extra, moves="--no-moves" not in extra
    )
    assert got == run_cli("cram", "--board", str(path), *extra)


@pytest.mark.parametrize(
    "kwargs,cli",
    [
        ({"rows": 1, "cols": 1}, ["1x1"]),
        ({"rows": 3, "cols": 3}, ["3x3"]),
        ({"rows": "4x5"}, ["4x5"]),
        ({"rows": 6, "cols": 7, "outcome_only": True}, ["6x7", "--outcome-only"]),
        ({"rows": 6, "cols": 6, "moves": False}, ["6x6", "--no-moves"]),
        ({"shape": [5, 3, 3, 1]}, ["--shape", "5,3,3,1"]),
        ({"shape": "4 2 1"}, ["--shape", "4 2 1"]),
        ({"shape": (7, 7, 2), "memory": "4K"}, ["--shape", "7,7,2", "--memory", "4K"]),
    ],
)
def test_chomp_equals_the_cli(kwargs, cli):
    assert grundy.chomp(**kwargs) == run_cli("chomp", *cli)


# ---- a plain brute force: memoised recursion over the positions as Python values ----


def cram_brute(cells: frozenset):
    """(value, winning dominoes) of Cram on a set of empty (row, col) cells."""

    def dominoes(empty):
        for r, c in sorted(empty):
            for q in ((r, c + 1), (r + 1, c)):
                if q in empty:
                    yield ((r, c), q)

    @functools.lru_cache(maxsize=None)
    def g(empty: frozenset) -> int:
        return mex(g(empty - set(d)) for d in dominoes(empty))

    winning = sorted([list(a), list(b)] for a, b in dominoes(cells) if g(cells - {a, b}) == 0)
    return g(cells), winning


def chomp_brute(rows: tuple):
    """(value, winning bites) of Chomp on a diagram of row lengths (poisoned row first)."""

    def bites(d):
        for i, n in enumerate(d):
            for c in range(n):
                if (i, c) != (0, 0):
                    yield (i, c), tuple(x for x in (d[:i] + tuple(min(x, c) for x in d[i:])) if x)

    @functools.lru_cache(maxsize=None)
    def g(d: tuple) -> int:
        return mex(g(e) for _, e in bites(d))

    return g(rows), sorted([i, c] for (i, c), e in bites(rows) if g(e) == 0)


def board_text(cells, h, w):
    return "\n".join("".join("." if (r, c) in cells else "#" for c in range(w)) for r in range(h))


@pytest.mark.parametrize("h,w", [(1, 5), (2, 2), (2, 5), (3, 3), (3, 4), (4, 4)])
def test_cram_matches_a_brute_force(h, w):
    full = frozenset((r, c) for r in range(h) for c in range(w))
    boards = [full, full - {(0, 0)}, full - {(h - 1, w - 1), (0, w - 1)}]
    for cells in boards:
        value, winning = cram_brute(cells)
        got = grundy.cram(board=board_text(cells, h, w))
        assert got["grundy_value"] == value
        assert got["outcome"] == ("P" if value == 0 else "N")
        assert sorted(m["cells"] for m in got["winning_moves"]) == winning
        assert (
            grundy.cram(board=board_text(cells, h, w), outcome_only=True)["outcome"]
            == got["outcome"]
        )


@pytest.mark.parametrize(
    "rows", [(1,), (2,), (1, 1), (2, 1), (3, 3), (4, 2, 1), (5, 5, 5), (6, 3, 3, 1), (4, 4, 4, 4)]
)
def test_chomp_matches_a_brute_force(rows):
    value, winning = chomp_brute(rows)
    got = grundy.chomp(shape=list(rows))
    assert got["grundy_value"] == value
    assert sorted([m["row"], m["col"]] for m in got["winning_moves"]) == winning
    assert got["rows"] == list(rows) and got["squares"] == sum(rows)


# ---- bad input: the CLI's one-line message ----


@pytest.mark.parametrize(
    "call,args",
    [
        (lambda: grundy.cram("3by4"), ["cram", "3by4"]),
        (lambda: grundy.cram(9, 9), ["cram", "9x9"]),
        (lambda: grundy.cram(3, 4, memory="lots"), ["cram", "3x4", "--memory", "lots"]),
        (lambda: grundy.cram(3, 4, memory="1"), ["cram", "3x4", "--memory", "1"]),
        (lambda: grundy.chomp("4*"), ["chomp", "4*"]),
        (lambda: grundy.chomp(40, 40), ["chomp", "40x40"]),
        (lambda: grundy.chomp(0, 3), ["chomp", "0x3"]),
        (lambda: grundy.chomp(shape=[3, 5]), ["chomp", "--shape", "3,5"]),
        (lambda: grundy.chomp(shape="3,x"), ["chomp", "--shape", "3,x"]),
        (lambda: grundy.chomp(shape=[]), ["chomp", "--shape", ""]),
        (lambda: grundy.chomp(shape=[10**30]), ["chomp", "--shape", str(10**30)]),
        (lambda: grundy.chomp(3, 3, memory="2T"), ["chomp", "3x3", "--memory", "2T"]),
    ],
)
def test_bad_input_has_the_cli_message(call, args):
    with pytest.raises(ValueError) as info:
        call()
    # the same line, naming the keyword as written in Python where the CLI names its flag
    assert str(info.value) == cli_error(*args).replace("--memory ", "memory ")


@pytest.mark.parametrize("board", ["..x\n...\n", "", ("." * 9 + "\n") * 9])
def test_bad_boards_have_the_cli_message(tmp_path, board):
    path = tmp_path / "b.txt"
    path.write_text(board)
    with pytest.raises(ValueError) as info:
        grundy.cram(board=board)
    assert str(info.value) == cli_error("cram", "--board", str(path))


def test_wrong_argument_types_and_combinations():
    with pytest.raises(TypeError):
        grundy.cram(3)
    with pytest.raises(TypeError):
        grundy.cram("3x4", 5)
    with pytest.raises(TypeError):
        grundy.cram(3.0, 4)
    with pytest.raises(ValueError, match="exactly one"):
        grundy.cram()
    with pytest.raises(ValueError, match="exactly one"):
        grundy.chomp(3, 3, shape=[3])
    with pytest.raises(TypeError):
        grundy.cram(board=b"...")
    with pytest.raises(TypeError):
        grundy.chomp(3, 3, memory=512)
    with pytest.raises(ValueError, match="negative"):
        grundy.chomp(-3, 3)


# ---- progress and Ctrl-C ----


def test_progress_is_called_with_nodes_and_a_last_report():
    calls = []
    got = grundy.chomp(9, 9, moves=False, progress=lambda done, total: calls.append((done, total)))
    assert calls and all(total is None for _, total in calls)
    assert calls[-1][0] == got["search"]["nodes"]
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_an_exception_in_the_progress_callback_reaches_the_caller():
    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop(done)

    with pytest.raises(Stop):
        grundy.chomp(9, 9, progress=stop)
    assert grundy.chomp(2, 2, progress=stop)["winning_moves"] == [{"row": 1, "col": 1}]


def test_ctrl_c_raises_keyboard_interrupt_promptly():
    # Chomp 13x13 takes far longer than the interrupt's 0.3 s
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.chomp(13, 13, moves=False, progress=False)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 10


# ---- saved tables and threads (the library's SearchOptions, as `--checkpoint`/`--threads`) ----


def _answer(d):
    return {k: v for k, v in d.items() if k != "search"}


def test_a_saved_table_resumes_and_gives_the_same_answer(tmp_path, capfd):
    table = tmp_path / "chomp.table"
    plain = grundy.chomp(7, 7)
    first = grundy.chomp(7, 7, checkpoint=table, checkpoint_every=0.5)
    assert table.exists() and _answer(first) == _answer(plain)
    capfd.readouterr()
    # the next call (a str path this time) starts from the file: nothing left to search
    again = grundy.chomp(7, 7, checkpoint=str(table))
    assert _answer(again) == _answer(plain)
    assert again["search"]["nodes"] < first["search"]["nodes"]
    assert "resuming from table" in capfd.readouterr().err
    # the CLI reads the file Python wrote
    assert _answer(run_cli("chomp", "7x7", "--checkpoint", str(table))) == _answer(plain)
    cram = tmp_path / "cram.table"
    assert _answer(grundy.cram(4, 5, checkpoint=cram)) == _answer(grundy.cram(4, 5))
    assert _answer(grundy.cram(4, 5, checkpoint=cram)) == _answer(grundy.cram(4, 5))


def test_ctrl_c_saves_the_table_and_the_same_call_resumes(tmp_path, capfd):
    table = tmp_path / "chomp.table"
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.chomp(13, 13, moves=False, progress=False, checkpoint=table)
    finally:
        timer.cancel()
    err = capfd.readouterr().err
    assert "interrupted:" in err and "positions saved to" in err, err
    assert table.stat().st_size > 0
    resumed = grundy.chomp(8, 8, moves=False, checkpoint=table)
    assert "resuming from table" in capfd.readouterr().err
    assert _answer(resumed) == _answer(grundy.chomp(8, 8, moves=False))


@pytest.mark.parametrize("threads", [2, 0])
def test_threads_give_the_single_threaded_answer(threads):
    for kwargs in [{}, {"outcome_only": True}, {"moves": False}]:
        assert _answer(grundy.cram(4, 5, threads=threads, **kwargs)) == _answer(
            grundy.cram(4, 5, **kwargs)
        )
        assert _answer(grundy.chomp(6, 7, threads=threads, **kwargs)) == _answer(
            grundy.chomp(6, 7, **kwargs)
        )
    assert _answer(grundy.cram(board=BOARDS[1], threads=threads)) == _answer(
        grundy.cram(board=BOARDS[1])
    )


def _python_words(message):
    return (
        message.replace("--checkpoint-every", "checkpoint_every")
        .replace("--checkpoint", "checkpoint")
        .replace("--threads", "threads")
    )


def test_bad_saved_table_options_have_the_cli_message(tmp_path):
    t = str(tmp_path / "t.table")
    for call, args in [
        (lambda: grundy.cram(3, 4, threads=300), ["cram", "3x4", "--threads", "300"]),
        (
            lambda: grundy.cram(3, 4, checkpoint=t, threads=2),
            ["cram", "3x4", "--checkpoint", t, "--threads", "2"],
        ),
        (
            lambda: grundy.chomp(3, 4, checkpoint=t, checkpoint_every=-1),
            ["chomp", "3x4", "--checkpoint", t, "--checkpoint-every", "-1"],
        ),
        (
            lambda: grundy.chomp(3, 4, checkpoint=t, checkpoint_every=0),
            ["chomp", "3x4", "--checkpoint", t, "--checkpoint-every", "0"],
        ),
        (
            lambda: grundy.chomp(3, 4, checkpoint=str(tmp_path / "none" / "x")),
            ["chomp", "3x4", "--checkpoint", str(tmp_path / "none" / "x")],
        ),
    ]:
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == _python_words(cli_error(*args))
    # a file of another game is refused, as by the CLI
    grundy.cram(3, 4, checkpoint=t)
    with pytest.raises(ValueError) as info:
        grundy.chomp(3, 4, checkpoint=t)
    assert str(info.value) == _python_words(cli_error("chomp", "3x4", "--checkpoint", t))
    with pytest.raises(TypeError):
        grundy.cram(3, 4, threads=2.0)
    with pytest.raises(TypeError):
        grundy.cram(3, 4, threads=True)
    with pytest.raises(ValueError, match="out of range"):
        grundy.cram(3, 4, threads=-1)
    with pytest.raises(ValueError, match="out of range"):
        grundy.cram(3, 4, threads=10**30)
    with pytest.raises(TypeError):
        grundy.cram(3, 4, checkpoint=t, checkpoint_every="5")
    with pytest.raises(TypeError):
        grundy.cram(3, 4, checkpoint=5)
