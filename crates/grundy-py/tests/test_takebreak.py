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
    assert naive.to_dict() == run_cli("takebreak", "0.77", "-n", "2000", "--print", "--engine", "naive", *NO_STATE)


def test_non_octal_code_uses_naive_engine_like_cli():
    seq = grundy.takebreak("grundys-game", 500)
    assert seq.to_dict() == run_cli("takebreak", "grundys-game", "-n", "500", "--print", *NO_STATE)


@pytest.mark.parametrize("code,heaps", [("0.77", [5, 7, 9]), ("0.07", [3, 3]), ("0.137", [10, 20, 1])])
def test_position_matches_cli(code, heaps):
    r = grundy.takebreak_position(code, heaps)
    assert r == run_cli("takebreak", code, "--heaps", ",".join(map(str, heaps)))
    g = octal_values(code, max(heaps))
    assert r["grundy_value"] == functools.reduce(lambda a, b: a ^ b, (g[h] for h in heaps))


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
            grundy.takebreak("0.16", 10**8)
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
