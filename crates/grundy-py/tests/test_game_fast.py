"""The fast paths of grundy.Game against plain Python: ints hashed and compared in Rust (with
Python's equality kept: 1 == 1.0 == True share one entry, equal hashes of unequal positions
do not), `components=grundy.tuple_components` read in Rust against the same function called
from Python and against a brute force, and the sequence helper without a position callback."""

from __future__ import annotations

import collections
import fractions
import random

import grundy
import pytest
from conftest import mex

# Ints around the edges of the Rust fast path (64-bit ints) and of Python's hash (2^61 - 1,
# whose multiples hash to 0; -1, which hashes to -2 like -2).
MODULUS = 2**61 - 1
EDGES = [
    0,
    1,
    2,
    -1,
    -2,
    255,
    256,
    257,
    MODULUS,
    2 * MODULUS,
    -MODULUS,
    MODULUS + 1,
    2**63 - 1,
    -(2**63),
    2**63,
    -(2**63) - 1,
    2**64 + 5,
    -(2**100),
]


def spellings(x):
    """Python values equal to the int x: the int, a Fraction (equal, with the same hash, at
    every size), and a float and a bool when they are equal."""
    out = [x, fractions.Fraction(x)]
    if abs(x) < 2**53:
        out.append(float(x))
    if x in (0, 1):
        out.append(bool(x))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_int_positions_keep_pythons_equality(seed):
    rng = random.Random(seed)
    numbers = sorted(set(EDGES + [rng.randint(-(10**6), 10**6) for _ in range(40)]))
    rank = {x: i for i, x in enumerate(numbers)}
    # A random game on the numbers: every option of x comes earlier in `numbers`, and each
    # option is given as any of its spellings (int, float, bool), chosen at random per call.
    dag = {x: rng.sample(numbers[: rank[x]], min(rank[x], rng.randint(0, 4))) for x in numbers}

    def options(p):
        return [rng.choice(spellings(o)) for o in dag[int(p)]]

    g = {}
    for x in numbers:
        g[x] = mex(g[o] for o in dag[x])
    game = grundy.Game(options=options)
    for x in reversed(numbers):
        for spelled in spellings(x):
            assert game.grundy_value(spelled) == g[x], (x, spelled)
    # Equal positions share one entry, whatever their spelling; unequal ones never do (even
    # 0 and 2^61 - 1, whose hashes are equal).
    assert game.positions_evaluated == len(numbers)


def test_int_subclasses_and_big_ints_are_positions_like_any_other():
    class Heap(int):
        pass

    game = grundy.Game(options=lambda n: [Heap(n - s) for s in (1, 2) if s <= n])
    assert [game.grundy_value(Heap(n)) for n in range(9)] == [n % 3 for n in range(9)]
    assert game.grundy_value(7) == 1  # the int 7 is the Heap 7 (equal, same hash)
    big = grundy.Game(options=lambda n: [n - s for s in (1, 2) if s <= n - 2**70])
    assert big.grundy_value(2**70 + 8) == 2


def grundys_game_value(n, memo={}):
    """Grundy's game on one heap by the definition: split into two unequal non-empty heaps."""
    if n not in memo:
        memo[n] = mex(
            grundys_game_value(a) ^ grundys_game_value(n - a) for a in range(1, (n + 1) // 2)
        )
    return memo[n]


def test_tuple_components_in_rust_agree_with_the_python_function_and_brute_force():
    def options(h):
        return [(a, h - a) for a in range(1, (h + 1) // 2)]

    fast = grundy.Game(options=options, components=grundy.tuple_components)
    slow = grundy.Game(options=options, components=lambda p: grundy.tuple_components(p))
    expected = [grundys_game_value(n) for n in range(301)]
    assert fast.sequence(300).values == expected
    assert slow.sequence(300).values == expected
    assert expected[:21] == grundy.takebreak("grundys-game", 20).values
    for p in [(5, 8), (3, 4, 9), (), (7,), ((3, 5), 8), (1, (2, (4, 10)))]:
        assert fast.grundy_value(p) == slow.grundy_value(p)
    for n in range(40):
        assert fast.winning_moves(n) == slow.winning_moves(n)
        assert fast.winning_moves(n) == [
            (a, n - a) for a in range(1, (n + 1) // 2) if expected[a] == expected[n - a]
        ]
    assert fast.grundy_value((5, 8)) == expected[5] ^ expected[8]
    assert fast.grundy_value(()) == 0
    # Both store single heaps only; the sums are never stored.
    assert fast.positions_evaluated == slow.positions_evaluated == 301


def test_tuple_components_split_exact_tuples_only():
    Pair = collections.namedtuple("Pair", "a b")
    assert grundy.tuple_components(Pair(1, 2)) is None
    assert grundy.tuple_components("ab") is None
    assert grundy.tuple_components([1, 2]) is None
    assert grundy.tuple_components((1, "x")) == [1, "x"]

    # A game whose positions are namedtuples (one heap and a tag) and whose moves leave exact
    # tuples of such positions: only the exact tuples split.
    def options(p):
        if isinstance(p, Pair):
            return [(Pair(a, p.b), Pair(p.a - a, p.b)) for a in range(1, (p.a + 1) // 2)]
        raise AssertionError("sums are split, never asked for options")

    game = grundy.Game(options=options, components=grundy.tuple_components)
    assert [game.grundy_value(Pair(n, "t")) for n in range(40)] == [
        grundys_game_value(n) for n in range(40)
    ]
    # canonical applies to the parts too: here it maps every tag to one.
    calls = []

    def canonical(p):
        calls.append(p)
        return Pair(p.a, "t") if isinstance(p, Pair) else p

    shared = grundy.Game(options=options, components=grundy.tuple_components, canonical=canonical)
    assert shared.grundy_value((Pair(9, "x"), Pair(12, "y"))) == (
        grundys_game_value(9) ^ grundys_game_value(12)
    )
    # stored: the heaps 1..12 (a move never leaves a heap of 0)
    assert Pair(9, "x") in calls and shared.positions_evaluated == 12


def test_sequence_without_a_position_is_the_heap_of_k():
    game = grundy.Game(options=lambda n: [n - s for s in (2, 5) if s <= n])
    same = grundy.Game(options=lambda n: [n - s for s in (2, 5) if s <= n])
    assert game.sequence(200).values == same.sequence(200, position=lambda k: k).values
    assert game.sequence(200).values == grundy.subtraction_sequence(200, set=[2, 5]).values
