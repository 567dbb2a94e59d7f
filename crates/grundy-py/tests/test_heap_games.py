"""Nim, subtraction games, Wythoff and common-divisor Nim: the package against the CLI's --json
and against brute forces written here from the rules."""

from __future__ import annotations

import functools
import itertools
import math

import grundy
import pytest
from conftest import mex, run_cli

NIM_POSITIONS = [[3, 5, 2], [1, 1, 1], [0], [7, 7], [1, 2, 3], [10**40 + 7, 3**90, 12345]]


@pytest.mark.parametrize("heaps", NIM_POSITIONS)
def test_nim_matches_cli(heaps):
    words = [str(h) for h in heaps]
    assert grundy.nim(heaps) == run_cli("nim", *words)
    assert grundy.nim(heaps, misere=True) == run_cli("nim", *words, "--misere")
    for target in (0, 1, 5):
        assert grundy.nim(heaps, target=target) == run_cli("nim", *words, "--target", str(target))


def test_nim_against_brute_force():
    for heaps in itertools.product(range(5), repeat=3):
        r = grundy.nim(heaps)
        value = functools.reduce(lambda a, b: a ^ b, heaps)
        assert r["grundy_value"] == value
        assert r["outcome"] == ("P" if value == 0 else "N")
        brute = [
            {"heap": i, "from": h, "to": t}
            for i, h in enumerate(heaps)
            for t in range(h)
            if value ^ h ^ t == 0
        ]
        assert r["winning_moves"] == brute


@functools.lru_cache(maxsize=None)
def misere_nim_wins(heaps):
    """Whether the player to move wins misère Nim (taking the last token loses)."""
    if not any(heaps):
        return True  # the previous player took the last token and lost
    return any(
        not misere_nim_wins(tuple(sorted(heaps[:i] + (t,) + heaps[i + 1 :])))
        for i, h in enumerate(heaps)
        for t in range(h)
    )


def test_nim_misere_against_brute_force():
    for heaps in itertools.product(range(4), repeat=3):
        expected = "N" if misere_nim_wins(tuple(sorted(heaps))) else "P"
        assert grundy.nim(heaps, misere=True)["misere_outcome"] == expected


SETS = [("--set", [1, 3, 4]), ("--set", [2, 5, 7]), ("--all-but", [2, 5]), ("--all-but", [1])]


def subtraction_values(flag, numbers, n):
    allowed = (
        (lambda s: s in numbers) if flag == "--set" else (lambda s: s > 0 and s not in numbers)
    )
    g = []
    for k in range(n + 1):
        g.append(mex(g[k - s] for s in range(1, k + 1) if allowed(s)))
    return g


def py_set(flag, numbers):
    return {"set": numbers} if flag == "--set" else {"all_but": numbers}


@pytest.mark.parametrize("flag,numbers", SETS)
def test_subtraction_matches_cli_and_brute_force(flag, numbers):
    text = ",".join(map(str, numbers))
    seq = grundy.subtraction_sequence(60, **py_set(flag, numbers))
    assert seq.to_dict() == run_cli("subtraction", flag, text, "--sequence", "60")
    assert seq.values == subtraction_values(flag, numbers, 60)
    for heaps in ([10, 7], [0], [13, 13, 4], [40, 1, 22]):
        words = [str(h) for h in heaps]
        assert grundy.subtraction(heaps, **py_set(flag, numbers)) == run_cli(
            "subtraction", flag, text, *words
        )
        assert grundy.subtraction(heaps, target=2, **py_set(flag, numbers)) == run_cli(
            "subtraction", flag, text, *words, "--target", "2"
        )
        g = subtraction_values(flag, numbers, max(heaps))
        value = functools.reduce(lambda a, b: a ^ b, (g[h] for h in heaps))
        assert grundy.subtraction(heaps, **py_set(flag, numbers))["grundy_value"] == value


@functools.lru_cache(maxsize=None)
def wythoff_value(a, b):
    options = [(a - k, b) for k in range(1, a + 1)] + [(a, b - k) for k in range(1, b + 1)]
    options += [(a - k, b - k) for k in range(1, min(a, b) + 1)]
    return mex(wythoff_value(*o) for o in options)


@pytest.mark.parametrize("a,b", [(4, 8), (4, 7), (0, 0), (16, 26), (30, 31), (10**30, 10**30 + 5)])
def test_wythoff_matches_cli(a, b):
    assert grundy.wythoff(a, b) == run_cli("wythoff", str(a), str(b))


def test_wythoff_against_brute_force():
    for a in range(12):
        for b in range(12):
            r = grundy.wythoff(a, b)
            v = wythoff_value(a, b)
            assert r["grundy_value"] == v
            assert r["outcome"] == ("P" if v == 0 else "N")
            brute = sorted(
                [x, y]
                for x in range(a + 1)
                for y in range(b + 1)
                if (x, y) != (a, b)
                and (x == a or y == b or a - x == b - y)
                and wythoff_value(x, y) == 0
            )
            assert sorted(m["to"] for m in r["winning_moves"]) == brute


@functools.lru_cache(maxsize=None)
def cdnim_value(heaps):
    g = functools.reduce(math.gcd, heaps)
    if g == 0:
        return 0
    divisors = [d for d in range(1, g + 1) if g % d == 0]
    return mex(
        cdnim_value(tuple(sorted(heaps[:i] + (h - d,) + heaps[i + 1 :])))
        for i, h in enumerate(heaps)
        for d in divisors
        if d <= h
    )


@pytest.mark.parametrize(
    "heaps", [[6, 3, 2], [4, 8], [12, 18, 30], [0, 0], [7], [3**200 * 32, 7**150 * 32]]
)
def test_cdnim_matches_cli(heaps):
    assert grundy.cdnim(heaps) == run_cli("cdnim", *map(str, heaps))


def test_cdnim_against_brute_force():
    for heaps in itertools.product(range(9), repeat=2):
        assert grundy.cdnim(heaps)["grundy_value"] == cdnim_value(tuple(sorted(heaps))), heaps
    for heaps in [(6, 3, 2), (4, 4, 8), (6, 6, 6), (2, 4, 6)]:
        r = grundy.cdnim(heaps)
        assert r["grundy_value"] == cdnim_value(tuple(sorted(heaps)))
        for m in r["winning_moves"]:
            after = list(heaps)
            after[m["heap"]] = m["to"]
            assert cdnim_value(tuple(sorted(after))) == 0
