"""Misère play: genera and quotients against the CLI's --json and a plain Python search."""

from __future__ import annotations

import functools

import grundy
import pytest
from conftest import run_cli


def octal_options(code, n):
    """Options of a heap of n under an octal code 0.d1d2..., as sorted tuples of heaps."""
    digits = [int(c) for c in code.split(".")[1]]
    out = set()
    for k, d in enumerate(digits, start=1):
        rest = n - k
        if rest < 0:
            continue
        if d & 1 and rest == 0:
            out.add(())
        if d & 2 and rest > 0:
            out.add((rest,))
        if d & 4:
            for a in range(1, rest // 2 + 1):
                out.add((a, rest - a))
    return out


def misere_p(code, heaps):
    """Plain misère search: P when every option is N, and the empty position is N."""

    @functools.lru_cache(maxsize=None)
    def p(pos):
        moves = []
        for i, h in enumerate(pos):
            if i and pos[i - 1] == h:
                continue
            for o in octal_options(code, h):
                rest = pos[:i] + pos[i + 1 :] + o
                moves.append(tuple(sorted(x for x in rest if x)))
        return bool(moves) and not any(p(m) for m in moves)

    return p(tuple(sorted(heaps)))


def test_quotient_matches_cli_and_plain_search():
    q = grundy.misere_quotient("0.75")
    cli = run_cli("misere-quotient", "0.75", "--quiet")
    for key in (
        "order",
        "p_portion_size",
        "presentation",
        "p_portion",
        "pretending_function",
        "period",
        "preperiod",
        "certificate",
        "recognised",
        "last_rogue",
    ):
        # The CLI helper reads decimal strings as ints (big integers); the word "1" is one.
        norm = lambda v: [str(x) for x in v] if isinstance(v, list) else v  # noqa: E731
        assert norm(q.report[key]) == norm(cli[key]), key
    assert (q.order, q.p_portion_size, q.certified) == (8, 2, True)
    for heaps in ([1], [2], [1, 1], [3, 4], [2, 2, 5], [6, 7], [1, 2, 3, 4]):
        assert q.outcome(heaps) == ("P" if misere_p("0.75", heaps) else "N"), heaps
        move = q.winning_move(heaps)
        if move is not None:
            rest = list(heaps)
            rest.pop(move["index"])
            assert misere_p("0.75", rest + move["to"])
    # certified: any heap size
    assert q.outcome([10**6]) in ("P", "N")


def test_partial_quotient_refuses_beyond_range_and_bad_input():
    q = grundy.misere_quotient("0.07", max_heap=12)
    assert not q.certified and q.computed_to_heap == 12
    with pytest.raises(ValueError, match="beyond the partial quotient"):
        q.outcome([40])
    with pytest.raises(ValueError, match="'#'"):
        grundy.misere_quotient("0.7#")
    with pytest.raises(ValueError, match="timeout"):
        grundy.misere_quotient("0.77", timeout=-1)
    with pytest.raises(TypeError):
        grundy.misere_quotient(77)
    with pytest.raises(ValueError):
        grundy.misere_quotient("0.77", max_heap=-3)


def test_genus_matches_cli():
    g = grundy.misere_genus("kayles", 8)
    assert g["genus"][5] == "4^146"
    assert g == run_cli("takebreak", "kayles", "--misere", "-n", "8")
