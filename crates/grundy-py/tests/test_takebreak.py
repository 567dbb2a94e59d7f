"""Take-and-break games: sequences, periods, positions and transforms against the CLI's --json
and against a plain Python evaluator of octal games."""

from __future__ import annotations

import functools
import threading
import _thread

import grundy
import pytest
from conftest import mex, run_cli

NO_STATE = ("--no-checkpoint", "--no-record")


def octal_values(code, n):
    """G(0..n) of an octal code 0.d1d2... by the definition: digit d_k allows removing k tokens
    and leaving 0 heaps (bit 1), 1 heap (bit 2) or 2 heaps (bit 4)."""
    digits = [int(c) for c in code.split(".")[1]]
    g = []
    for heap in range(n + 1):
        options = set()
        for k, d in enumerate(digits, start=1):
            rest = heap - k
            if rest < 0:
                continue
            if d & 1 and rest == 0:
                options.add(0)
            if d & 2 and rest > 0:
                options.add(g[rest])
            if d & 4:
                for a in range(1, rest // 2 + 1):
                    if rest - a > 0:
                        options.add(g[a] ^ g[rest - a])
        g.append(mex(options))
    return g


@pytest.mark.parametrize("code", ["0.07", "0.77", "0.137", "0.16", "0.6", "0.34"])
def test_sequence_matches_cli_and_brute_force(code):
    seq = grundy.takebreak(code, 300)
    assert seq.to_dict() == run_cli("takebreak", code, "-n", "300", "--print", *NO_STATE)
    assert seq.values == octal_values(code, 300)


@pytest.mark.parametrize("code", ["0.07", "kayles", "0.137", "4.07"])
def test_until_period_matches_cli(code):
    seq = grundy.takebreak(code, until_period=True)
    cli = run_cli("takebreak", code, "--until-period", "--print", *NO_STATE)
    assert seq.to_dict() == cli
    if cli["period"] is not None:
        assert (seq.preperiod, seq.period, seq.certified) == (
            cli["period"]["preperiod"],
            cli["period"]["period"],
            cli["period"]["certified"],
        )


def test_engines_agree_and_match_cli():
    naive = grundy.takebreak("0.77", 2000, engine="naive")
    sparse = grundy.takebreak("0.77", 2000, engine="sparse")
    assert naive.values == sparse.values
    assert naive.report["engine"] == "naive"
    assert naive.to_dict() == run_cli(
        "takebreak", "0.77", "-n", "2000", "--print", "--engine", "naive", *NO_STATE
    )


def test_non_octal_code_uses_naive_engine_like_cli():
    seq = grundy.takebreak("grundys-game", 500)
    assert seq.to_dict() == run_cli("takebreak", "grundys-game", "-n", "500", "--print", *NO_STATE)


@pytest.mark.parametrize(
    "code,heaps", [("0.77", [5, 7, 9]), ("0.07", [3, 3]), ("0.137", [10, 20, 1])]
)
def test_position_matches_cli(code, heaps):
    r = grundy.takebreak_position(code, heaps)
    assert r == run_cli("takebreak", code, "--heaps", ",".join(map(str, heaps)))
    g = octal_values(code, max(heaps))
    assert r["grundy_value"] == functools.reduce(lambda a, b: a ^ b, (g[h] for h in heaps))


def test_a_move_that_adds_a_token_has_removed_minus_one():
    # 80.0 turns a heap of n into three heaps of n + 1 tokens in all
    r = grundy.takebreak_position("80.0", [2, 5])
    assert r["winning_moves"]
    for m in r["winning_moves"]:
        assert m["removed"] == -1 and sum(m["leaves"]) == m["from"] + 1


def test_transforms_match_cli():
    assert grundy.takebreak_cousin("0.6", check_up_to=500) == run_cli(
        "takebreak", "0.6", "--cousin", "--check-up-to", "500"
    )
    assert grundy.takebreak_fold("0.77", 2, check_up_to=500) == run_cli(
        "takebreak", "0.77", "--fold", "2", "--check-up-to", "500"
    )


def test_sequence_as_numpy():
    import numpy

    seq = grundy.takebreak("0.07", 100)
    a = seq.to_numpy()
    assert a.dtype == numpy.uint16 and a.tolist() == seq.values
    sub = grundy.subtraction_sequence(30, set=[1, 3, 4])
    assert sub.to_numpy().tolist() == sub.values


def test_plot_draws_the_sequence():
    import matplotlib

    matplotlib.use("Agg")
    seq = grundy.takebreak("0.07", until_period=True)
    ax = seq.plot()
    xs, ys = ax.collections[0].get_offsets().T
    assert list(ys) == seq.values and list(xs) == list(range(len(seq)))
    assert ax.get_title() == "G(n) of 0.07"


def test_ctrl_c_interrupts_a_long_sequence():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # the naive engine: quadratic, so the run is still going when the signal comes
            grundy.takebreak("0.16", 2 * 10**6, engine="naive")
    finally:
        timer.cancel()


def test_gil_is_released_during_a_sequence():
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        grundy.takebreak("0.16", 2 * 10**6)
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 5


def test_a_sequence_is_read_from_its_buffer_until_a_list_is_asked_for():
    import numpy

    s = grundy.takebreak("0.16", n=200_000)
    first = octal_values("0.16", 2000)
    assert len(s) == 200_001 and s[0] == first[0] and s[1999] == first[1999]
    assert s[-1] == s[200_000] and s[-200_001] == s[0]
    head = ", ".join(map(str, first[:12]))
    assert repr(s).startswith(f"Sequence('0.16', G(0..200000) = [{head}, ...]")
    assert s._lazy is not None  # single values came from the run, no buffer was built
    first = grundy.takebreak("0.16", n=200_000).values  # the list, from another run
    for cut in (
        slice(10, 40),
        slice(None, None, 7000),
        slice(-5, None),
        slice(None, -199_990),
        slice(None, None, -9999),
        slice(300, 100, -3),
        slice(5, 2),
        slice(-(10**9), 10**9),
    ):
        assert s[cut] == first[cut], cut
    assert s._lazy is not None and s[numpy.int64(7)] == first[7]
    with pytest.raises(TypeError):
        s["7"]
    assert sum(1 for _ in s) == len(first) and max(iter(s)) == max(first)
    assert list(numpy.asarray(s)) == first and numpy.asarray(s).dtype == numpy.uint16
    assert s._list is None  # none of the above built the list of 200,001 ints
    import copy
    import pickle

    again = pickle.loads(pickle.dumps(grundy.takebreak("0.16", n=200_000)))
    assert again == s and again.period == s.period and copy.deepcopy(again) == s
    assert numpy.array(s, copy=True).flags.writeable and not numpy.asarray(s).flags.writeable
    assert s.tolist() == first and s.values is s.tolist() and s == first
    for bad in (200_001, -200_002):
        with pytest.raises(IndexError):
            s[bad]
        with pytest.raises(IndexError):
            grundy.takebreak("0.16", n=200_000)[bad]  # on the run, before any buffer
    # A sequence computed in Python (grundy.Game) behaves the same.
    game = grundy.Game(options=lambda n: [n - k for k in (1, 2) if k <= n]).sequence(30)
    assert game[3:6] == [0, 1, 2] and len(game) == 31 and list(game) == game.values
    assert list(numpy.asarray(game)) == game.values


@pytest.mark.parametrize(
    "code,n", [("0.07", 20_000), ("0.137", 5_001), ("0.07", 176), ("0.07", 210)]
)
def test_a_sequence_extended_by_its_certified_period_matches_the_cli_and_brute_force(code, n):
    seq = grundy.takebreak(code, n)
    assert seq.report["computed_up_to"] < n  # the values past it are copies of the period
    head = octal_values(code, 400)
    pre, per = seq.preperiod, seq.period
    # one by one from the run, then the whole buffer, against the periodic extension
    assert all(seq[i] == head[pre + (i - pre) % per] for i in range(pre, n + 1))
    assert [seq[i] for i in range(min(n, 400) + 1)] == head[: n + 1] == seq[:401]
    assert seq[n:pre:-7] == [head[pre + (i - pre) % per] for i in range(n, pre, -7)]
    assert seq.to_dict() == run_cli("takebreak", code, "-n", str(n), "--print", *NO_STATE)
    assert seq.values[:401] == head[: n + 1]
    assert all(seq.values[i] == head[pre + (i - pre) % per] for i in range(pre, n + 1))


@pytest.mark.parametrize("threads", [2, 0])
def test_threads_give_the_serial_values_and_the_cli_s_report(threads):
    # Officers' values pass 64 early, so its rare/common engine reaches the two-thread path;
    # whether it pipelines depends on the machine's load (it backs off when the threads do not
    # overlap), never the values
    one = grundy.takebreak("0.6", 30000, engine="sparse")
    two = grundy.takebreak("0.6", 30000, engine="sparse", threads=threads)
    assert two.values == one.values
    assert one.report["threads"] == 1
    assert two.report["threads"] in (1, 2)
    cli = run_cli(
        "takebreak",
        "0.6",
        "-n",
        "30000",
        "--engine",
        "sparse",
        "--threads",
        str(threads),
        *NO_STATE,
    )
    assert cli["max_value"] == two.report["max_value"]
    assert cli["value_counts"] == two.report["value_counts"]


def test_compact_values_keep_officers_in_one_byte_with_the_same_values():
    # from 2^16 values on, with the rare/common engine (the CLI's --compact-values)
    plain = grundy.takebreak("0.6", 140000)
    compact = grundy.takebreak("0.6", 140000, compact_values=True)
    assert compact.values == plain.values
    assert (plain.report["value_bytes"], compact.report["value_bytes"]) == (2, 1)
    cli = run_cli("takebreak", "0.6", "-n", "140000", "--compact-values", *NO_STATE)
    assert cli["value_bytes"] == 1
    assert cli["value_counts"] == compact.report["value_counts"]
    # values that do not fit, and the naive engine: two bytes, said in the report
    assert grundy.takebreak("0.437", 70000, compact_values=True).report["value_bytes"] == 2
    naive = grundy.takebreak("0.6", 70000, engine="naive", compact_values=True)
    assert naive.report["value_bytes"] == 2


def test_bad_thread_counts_are_refused_as_the_cli_refuses_them():
    with pytest.raises(
        ValueError, match=r"^threads 5000 is too many: at most 256 \(0 for one per core\)$"
    ):
        grundy.takebreak("0.6", 100, threads=5000)
    with pytest.raises(ValueError, match=r"^threads -1 is out of range: give 0"):
        grundy.takebreak("0.6", 100, threads=-1)
    with pytest.raises(TypeError, match="threads must be an int"):
        grundy.takebreak("0.6", 100, threads=2.0)
