"""grundy.Game, the user's own game: values, outcomes and moves against a plain Python brute
force on random games, the built-in families through the same engine, components, canonical
forms, and the engine's promises (no recursion limit, tables kept, exceptions unchanged, Ctrl-C,
one-line TypeError/ValueError)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import textwrap
import time
import traceback

import grundy
import pytest
from conftest import ROOT, mex


def random_dag(rng: random.Random, size: int):
    """A random finite game on 0..size-1: every option of i is below i."""
    return {i: sorted(rng.sample(range(i), rng.randint(0, min(i, 4)))) for i in range(size)}


def brute_values(dag):
    """Normal-play values by the definition, bottom-up (options are smaller numbers)."""
    g = {}
    for i in sorted(dag):
        g[i] = mex(g[o] for o in dag[i])
    return g


def brute_misere(dag):
    """Misère outcomes: terminal is N; otherwise N exactly when some option is P."""
    out = {}
    for i in sorted(dag):
        out[i] = "N" if not dag[i] or any(out[o] == "P" for o in dag[i]) else "P"
    return out


def brute_last_mover(dag, players, prefs, position, mover):
    """Def. 4.1 of the multiplayer paper read literally (a recursion: small games only)."""
    if not dag[position]:
        return (mover - 1) % players
    best = None
    for o in dag[position]:
        w = brute_last_mover(dag, players, prefs, o, (mover + 1) % players)
        if best is None or prefs[mover].index(w) < prefs[mover].index(best):
            best = w
    return best


@pytest.mark.parametrize("seed", range(8))
def test_random_games_agree_with_brute_force(seed):
    rng = random.Random(seed)
    dag = random_dag(rng, 40)
    # Positions as strings, so that they are not the ints the engine might special-case.
    game = grundy.Game(options=lambda p: [f"v{o}" for o in dag[int(p[1:])]])
    g, misere = brute_values(dag), brute_misere(dag)
    for i in dag:
        p = f"v{i}"
        assert game.grundy_value(p) == g[i]
        assert game.outcome(p) == ("P" if g[i] == 0 else "N")
        assert game.winning_moves(p) == [f"v{o}" for o in dag[i] if g[o] == 0]
        for t in range(g[i] + 2):
            assert game.moves_to(p, t) == [f"v{o}" for o in dag[i] if g[o] == t]
        assert game.options_with_values(p) == [(f"v{o}", g[o]) for o in dag[i]]
        assert game.misere_outcome(p) == misere[i]
        assert game.misere_winning_moves(p) == [f"v{o}" for o in dag[i] if misere[o] == "P"]
    # Three players under Li's ranking GAMES(0,1,2) and under one arbitrary profile.
    li = [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    odd = [[2, 0, 1], [0, 2, 1], [1, 0, 2]]
    small = {i: o for i, o in dag.items() if i < 16}
    for i in small:
        r = game.multiplayer(f"v{i}", players=3)
        assert r["last_mover"] == brute_last_mover(small, 3, li, i, 0)
        assert r["position_offset"] == r["last_mover"]
        assert game.multiplayer(f"v{i}", prefs=odd)["last_mover"] == brute_last_mover(
            small, 3, odd, i, 0
        )


def nim_options(heaps):
    """Nim on a sorted tuple of heaps."""
    for i, h in enumerate(heaps):
        for k in range(h):
            yield tuple(sorted(heaps[:i] + (k,) + heaps[i + 1 :]))


def test_nim_as_a_callback_agrees_with_the_library_families():
    game = grundy.Game(options=nim_options)
    rng = random.Random(1)
    for _ in range(30):
        heaps = tuple(sorted(rng.randint(0, 4) for _ in range(rng.randint(1, 3))))
        nim = grundy.nim(list(heaps), misere=True)
        assert game.grundy_value(heaps) == nim["grundy_value"]
        assert game.outcome(heaps) == nim["outcome"]
        assert game.misere_outcome(heaps) == nim["misere_outcome"]
        many = grundy.multiplayer(list(heaps), players=3)
        mine = game.multiplayer(heaps, players=3)
        for key in ("players", "preferences", "orders", "last_mover", "position_offset"):
            assert mine[key] == many[key], key
        assert [s["player"] for s in mine["line"]] == [s["player"] for s in many["line"]]


def grundys_game_options(heaps):
    """Grundy's game on a sorted tuple of heaps: split one heap into two unequal heaps."""
    for i, h in enumerate(heaps):
        for a in range(1, (h + 1) // 2):
            yield tuple(sorted(heaps[:i] + (a, h - a) + heaps[i + 1 :]))


def test_components_give_the_values_of_the_whole_game():
    plain = grundy.Game(options=grundys_game_options)
    split = grundy.Game(
        options=grundys_game_options,
        components=lambda heaps: [(h,) for h in heaps] if len(heaps) > 1 else None,
    )
    for heaps in [(7,), (3, 5), (4, 5, 6), (2, 9, 10), (1, 1, 8)]:
        assert split.grundy_value(heaps) == plain.grundy_value(heaps)
        assert split.winning_moves(heaps) == plain.winning_moves(heaps)
    # The split game stores single heaps only: far fewer positions.
    assert split.positions_evaluated < plain.positions_evaluated
    # Grundy's game values (takebreak code 4.0 with the general engine agrees).
    seq = grundy.takebreak("grundys-game", 30).values
    assert [split.grundy_value((n,)) for n in range(31)] == seq


def test_canonical_shares_one_entry_per_class_and_keeps_the_moves_as_given():
    calls = []

    def options(heaps):
        calls.append(heaps)
        return nim_options(tuple(heaps))

    game = grundy.Game(options=options, canonical=lambda heaps: tuple(sorted(heaps)))
    assert game.grundy_value((3, 1, 2)) == 0
    assert game.grundy_value((2, 3, 1)) == 0
    assert all(list(h) == sorted(h) for h in calls)
    # Moves are reported as the callback listed them.
    assert game.winning_moves((1, 2, 4)) == [(1, 2, 3)]
    assert grundy.Game(options=nim_options).grundy_value((1, 2, 4)) == 7


def test_a_million_deep_chain_needs_no_recursion_limit_and_the_table_stays():
    calls = [0]

    def options(n):
        calls[0] += 1
        return [n - 1] if n else []

    limit = sys.getrecursionlimit()
    game = grundy.Game(options=options)
    assert game.grundy_value(10**6) == 0
    assert game.grundy_value(10**6 - 1) == 1
    assert sys.getrecursionlimit() == limit
    assert calls[0] == 10**6 + 1
    assert game.positions_evaluated == 10**6 + 1
    # Asking again (and for a sequence) calls the rules no more.
    assert game.outcome(10**6) == "P"
    assert game.sequence(1000).values == [k % 2 for k in range(1001)]
    assert calls[0] == 10**6 + 1
    # Misère play and three players go as deep (each with its own table; the principal line
    # of 10^5 moves is kept short to keep the test quick).
    assert game.misere_outcome(10**6) == "N"
    assert game.multiplayer(10**5, players=3)["last_mover"] == (10**5 - 1) % 3
    assert sys.getrecursionlimit() == limit


class Boom(Exception):
    pass


def test_an_exception_in_the_callback_reaches_the_caller_unchanged():
    calls = []

    def exploding_options(n):
        calls.append(n)
        if n == 500:
            raise Boom(f"no options for {n}")
        return [n - 1] if n else []

    game = grundy.Game(options=exploding_options)
    with pytest.raises(Boom, match="no options for 500") as info:
        game.grundy_value(1000)
    frames = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert frames[-1] == "exploding_options"
    # The engine stopped at once: nothing below 500 was asked for.
    assert min(calls) == 500
    # The game still works, and below the failing position it computes right values.
    assert game.grundy_value(499) == 1
    assert game.outcome(300) == "P"

    # Exceptions in components and canonical, and in misère play, travel the same way.
    def exploding_components(n):
        exploding_options(n)
        return None

    def exploding_canonical(n):
        exploding_options(n)
        return n

    chain = lambda n: [n - 1] if n else []  # noqa: E731
    for g, call in [
        (grundy.Game(chain, components=exploding_components), "value"),
        (grundy.Game(chain, canonical=exploding_canonical), "value"),
        (grundy.Game(exploding_options), "misere"),
    ]:
        with pytest.raises(Boom):
            g.misere_outcome(600) if call == "misere" else g.grundy_value(600)


def test_an_exception_in_equality_reaches_the_caller():
    class Touchy:
        def __hash__(self):
            return 1

        def __eq__(self, other):
            raise Boom("cannot compare")

    a, b = Touchy(), Touchy()
    game = grundy.Game(options=lambda p: [a, b] if p == "start" else [])
    with pytest.raises(Boom, match="cannot compare"):
        game.grundy_value("start")


def test_an_exception_in_hash_reaches_the_caller():
    class Unhashable:
        def __hash__(self):
            raise Boom("no hash today")

    game = grundy.Game(options=lambda p: [Unhashable()] if p == "start" else [])
    with pytest.raises(Boom, match="no hash today"):
        game.grundy_value("start")


@pytest.mark.parametrize(
    "options,components,message",
    [
        (
            lambda n: 5,
            None,
            r"^options\(1\) must return a list \(or any iterable\) of positions, not int$",
        ),
        (lambda n: None, None, r"^options\(1\) must return .*, not NoneType$"),
        (lambda n: "ab", None, r"^options\(1\) must return .*, not str$"),
        (lambda n: [[0]], None, r"^positions must be hashable, but the game gave \[0\] \(a list\)"),
        (lambda n: [{0}], None, r"^positions must be hashable, but the game gave \{0\} \(a set\)"),
        (
            lambda n: [],
            lambda n: 7,
            r"^components\(1\) must return None or a list of parts, not int$",
        ),
    ],
)
def test_bad_callbacks_get_a_one_line_type_error(options, components, message):
    with pytest.raises(TypeError, match=message) as info:
        grundy.Game(options=options, components=components).grundy_value(1)
    assert "\n" not in str(info.value)


def test_bad_arguments_are_type_errors():
    with pytest.raises(TypeError, match="options must be a function"):
        grundy.Game(options=[1, 2])
    with pytest.raises(TypeError, match="components must be a function"):
        grundy.Game(options=lambda n: [], components=3)
    with pytest.raises(TypeError, match="unhashable|hashable"):
        grundy.Game(options=lambda n: []).grundy_value([1])
    with pytest.raises(TypeError, match="target value must be an int"):
        grundy.Game(options=lambda n: []).moves_to(0, "0")
    with pytest.raises(ValueError, match="players must be between 2 and"):
        grundy.Game(options=lambda n: []).multiplayer(0, players=1)


def test_a_loop_is_a_value_error_naming_a_position_on_it():
    game = grundy.Game(options=lambda n: [(n + 1) % 5, 7] if n < 7 else [])
    with pytest.raises(ValueError, match=r"^the game has a loop: position \d can be reached"):
        game.grundy_value(0)
    with pytest.raises(ValueError, match="loop"):
        game.misere_outcome(0)
    # The part of the game off the loop still evaluates.
    assert game.grundy_value(7) == 0


def test_a_broken_components_is_a_value_error_naming_components():
    game = grundy.Game(options=lambda n: [n - 1] if n else [], components=lambda n: [n])
    with pytest.raises(ValueError, match=r"components\(\) is wrong"):
        game.grundy_value(3)


def test_max_positions_stops_a_game_that_never_ends():
    game = grundy.Game(options=lambda n: [n + 1], max_positions=1000)
    with pytest.raises(ValueError, match="^too large to brute-force: more than 1000 positions"):
        game.grundy_value(0)
    # Within the bound it answers (a finite game).
    small = grundy.Game(options=lambda n: [n - 1] if n else [], max_positions=1000)
    assert small.grundy_value(998) == 0
    with pytest.raises(ValueError, match="too large"):
        small.misere_outcome(5000)


def test_sequence_reports_an_observed_period():
    game = grundy.Game(options=lambda n: [n - k for k in (1, 3, 4) if k <= n])
    seq = game.sequence(100)
    assert seq.values == grundy.subtraction_sequence(100, set=[1, 3, 4]).values
    assert (seq.preperiod, seq.period, seq.certified) == (0, 7, False)
    assert "observed" in repr(seq)
    # A one-parameter family through position=: one heap as a 1-tuple.
    kayles = grundy.Game(
        options=lambda h: (
            [
                tuple(sorted(x for x in (a, h[0] - a - k) if x))
                for k in (1, 2)
                for a in range(h[0] - k + 1)
            ]
            if len(h) == 1
            else []
        ),
        components=lambda h: [(x,) for x in h] if len(h) > 1 else None,
    )
    values = kayles.sequence(60, position=lambda k: (k,) if k else ()).values
    assert values == grundy.takebreak("0.77", 60).values


def test_ctrl_c_interrupts_a_long_solve_and_the_game_still_works():
    child = textwrap.dedent("""
        import sys, grundy
        game = grundy.Game(options=lambda n: [n - 1, n - 2] if n > 1 else [])
        print("ready", flush=True)
        try:
            game.grundy_value(10**8)
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("interrupted", [game.grundy_value(k) for k in range(9)], flush=True)
        """)
    proc = subprocess.Popen(
        [sys.executable, "-c", child], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert out.strip() == "interrupted [0, 0, 1, 2, 0, 1, 2, 0, 1]"
    assert proc.returncode == 0


def test_games_solved_in_several_threads_at_once_agree():
    import threading

    results = {}

    def solve(k):
        game = grundy.Game(options=lambda n: [n - s for s in (1, 3, 4) if s <= n])
        results[k] = game.sequence(20_000).values

    threads = [threading.Thread(target=solve, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expected = grundy.subtraction_sequence(20_000, set=[1, 3, 4]).values
    assert all(results[k] == expected for k in range(4))
    # One game used from two threads at once: the second caller is refused, nothing breaks.
    shared = grundy.Game(options=lambda n: [n - 1] if n else [])
    errors = []

    def use():
        try:
            shared.grundy_value(200_000)
        except RuntimeError as e:
            errors.append(str(e))

    pair = [threading.Thread(target=use) for _ in range(2)]
    for t in pair:
        t.start()
    for t in pair:
        t.join()
    assert shared.grundy_value(200_000) == 0
    assert all("borrow" in e for e in errors)


def test_help_shows_an_example_that_runs():
    import doctest

    from grundy import _game

    assert ">>> game = grundy.Game(" in grundy.Game.__doc__
    failures, tried = doctest.testmod(_game)
    assert tried >= 4 and failures == 0


def slow_subtraction(calls=None):
    """S = {1, 3, 4} with options that take a fifth of a millisecond (a "long" game)."""

    def options(n):
        if calls is not None:
            calls.append(n)
        time.sleep(0.0002)
        return [n - s for s in (1, 3, 4) if s <= n]

    return options


def test_progress_of_a_sequence_counts_values_and_ends_with_the_total():
    reports = []
    game = grundy.Game(options=slow_subtraction(), progress=lambda d, t: reports.append((d, t)))
    assert game.sequence(2000).values == grundy.subtraction_sequence(2000, set=[1, 3, 4]).values
    assert len(reports) >= 3  # the run lasts about half a second: a report every 0.1 s
    assert all(t == 2001 for _, t in reports)
    assert [d for d, _ in reports] == sorted(d for d, _ in reports)
    assert reports[-1] == (2001, 2001) and reports[-2][0] < 2001


def test_progress_of_one_value_counts_the_positions_explored():
    reports = []
    game = grundy.Game(options=slow_subtraction(), progress=lambda d, t: reports.append((d, t)))
    assert game.grundy_value(3000) == grundy.subtraction_sequence(3000, set=[1, 3, 4]).values[-1]
    assert len(reports) >= 3 and all(t is None for _, t in reports)
    assert reports[-1] == (3001, None) == (game.positions_evaluated, None)
    reports.clear()
    game.grundy_value(2999)  # known already: nothing explored, nothing reported
    assert reports == []


def test_progress_bars_and_silence(capsys):
    pytest.importorskip("tqdm")
    grundy.Game(options=slow_subtraction(), progress=True).grundy_value(600)
    assert "grundy.Game: 601 positions" in capsys.readouterr().err
    # by default a bar appears only when someone watches (a terminal, a notebook): not here
    grundy.Game(options=slow_subtraction()).sequence(1200)
    grundy.Game(options=slow_subtraction(), progress=False).grundy_value(600)
    assert capsys.readouterr().err == ""
    with pytest.raises(TypeError, match="progress must be None, True, False or a callable"):
        grundy.Game(options=slow_subtraction(), progress="yes")


def test_an_exception_in_progress_reaches_the_caller_and_the_game_still_works():
    class Stop(Exception):
        pass

    def progress(done, total):
        if done > 500:
            raise Stop(done)

    game = grundy.Game(options=slow_subtraction(), progress=progress)
    with pytest.raises(Stop):
        game.sequence(3000)
    assert 500 < game.positions_evaluated < 3001
    with pytest.raises(Stop):  # the next report raises again; without reports all is well
        game.sequence(3000)
    quiet = grundy.Game(options=slow_subtraction())
    assert game.grundy_value(700) == quiet.grundy_value(700)


def test_ctrl_c_stops_a_sequence_and_a_second_call_continues():
    import _thread
    import threading

    calls = []
    game = grundy.Game(options=slow_subtraction(calls), progress=True)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            game.sequence(10**6)
    finally:
        timer.cancel()
    # every finished value is stored (the position being evaluated when the signal came is
    # not: its options may have been asked for)
    stored = game.positions_evaluated
    assert 0 < stored <= len(calls) <= stored + 1 and stored < 10**6
    # the second call asks only for the positions not yet known
    calls.clear()
    expected = grundy.subtraction_sequence(stored + 10, set=[1, 3, 4]).values
    assert game.sequence(stored + 10).values == expected
    assert sorted(calls) == list(range(stored, stored + 11))
