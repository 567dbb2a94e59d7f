"""Misère play: genera and quotients against the CLI's --json and a plain Python search."""

from __future__ import annotations

import functools

import grundy
import pytest
from conftest import cli_error, run_cli


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


def _strip(report):
    report = dict(report)
    report.pop("seconds", None)
    return report


def test_subtraction_quotients_match_the_cli():
    q = grundy.misere_quotient(set=[1, 3, 4])
    cli = run_cli("misere-quotient", "--set", "1,3,4", "--quiet")
    assert (q.order, q.p_portion_size, q.report["recognised"]) == (6, 2, "T2")
    norm = lambda v: [str(x) for x in v] if isinstance(v, list) else v  # noqa: E731
    for key in ("code", "presentation", "p_portion", "pretending_function", "period"):
        assert norm(q.report[key]) == norm(cli[key]), key
    q = grundy.misere_quotient(all_but=[2], max_heap=12)
    cli = run_cli("misere-quotient", "--all-but", "2", "--max-heap", "12", "--quiet")
    assert (q.order, q.p_portion_size, q.certified) == (cli["order"], cli["p_portion_size"], False)
    with pytest.raises(ValueError, match="give one game"):
        grundy.misere_quotient("0.77", set=[1, 2])
    with pytest.raises(ValueError, match="give one game"):
        grundy.misere_quotient()


def test_memory_and_checkpoint_keywords(tmp_path):
    # Bad values: the CLI's message with the keyword as written.
    for bad in ("lots", "1T5"):
        with pytest.raises(ValueError) as e:
            grundy.misere_quotient("0.77", memory=bad)
        cli = cli_error("misere-quotient", "0.77", "--memory", bad)
        assert str(e.value) == cli.replace("--memory", "memory")
    with pytest.raises(TypeError, match="memory must be a str"):
        grundy.misere_quotient("0.77", memory=512)
    with pytest.raises(TypeError, match="checkpoint must be a path"):
        grundy.misere_quotient("0.77", checkpoint=3)
    # A run that outgrows its memory is a partial result, as the CLI's.
    q = grundy.misere_quotient("0.07", max_heap=33, memory="1M")
    assert (q.finish, q.certified) == ("limit", False) and "memory" in q.limit
    assert q.computed_to_heap < 33
    # Saved at 22, resumed to 27: the report of one run to 27.
    ck = tmp_path / "q.ck"
    grundy.misere_quotient("0.07", max_heap=22, checkpoint=ck)
    assert ck.exists()
    resumed = grundy.misere_quotient("0.07", max_heap=27, checkpoint=str(ck))
    one = grundy.misere_quotient("0.07", max_heap=27)
    assert _strip(resumed.report) == _strip(one.report)
    ck.write_bytes(b"GRUNDYMQ not a checkpoint")
    with pytest.raises(ValueError) as e:
        grundy.misere_quotient("0.07", max_heap=27, checkpoint=ck)
    cli = cli_error("misere-quotient", "0.07", "--max-heap", "27", "--checkpoint", str(ck))
    assert str(e.value) == cli.replace("--checkpoint", "checkpoint")


def kayles_game():
    """Kayles written as a user's game: a heap is an int, a move leaves a tuple of heaps."""

    def options(n):
        out = []
        for k in (1, 2):
            for a in range(0, (n - k) // 2 + 1):
                if n - k >= 0:
                    out.append(tuple(x for x in (a, n - k - a) if x))
        return out

    return grundy.Game(options, components=grundy.tuple_components)


def test_a_code_written_as_a_game_has_the_codes_quotient():
    game = kayles_game()
    q = grundy.misere_quotient(game, positions=[30], name="kayles")
    code = grundy.misere_quotient("0.77", max_heap=30)
    assert isinstance(q, grundy.GameMisereQuotient)
    assert q.finish == "complete" and not q.certified
    assert q.components == [None] + list(range(1, 31))
    for key in ("order", "p_portion_size", "presentation", "p_portion", "pretending_function"):
        assert q.report[key] == code.report[key], key
    for heaps in ([5, 7, 9], [1, 1], [4], [2, 3, 8, 13], []):
        assert q.outcome(tuple(heaps)) == code.outcome(heaps), heaps
    move = q.winning_move((5, 7, 9))
    assert move is not None and move["from"] == [5, 7, 9][move["index"]]
    after = [5, 7, 9]
    after.pop(move["index"])
    after = tuple(sorted(after + list(move["to"])))
    assert q.outcome(after) == "P" and misere_p("0.77", after)
    # One pin is a misère P-position: two pins, N (take one).
    assert q.winning_move((1,)) is None and q.outcome((1,)) == "P"
    assert q.winning_move((1, 1)) == {"index": 0, "from": 1, "to": ()}
    assert q.word((1, 1)) == "1" and repr(q).startswith("GameMisereQuotient('kayles'")
    # the method is the function
    assert game.misere_quotient([30]).report["presentation"] == q.presentation


def test_circular_kayles_agrees_with_plain_misere_play():
    """Kayles on rows ("r", n) and circles ("c", n) of pins: not a heap game of one kind.
    Every sum of at most 12 pins agrees with the engine's plain misère search."""

    def options(p):
        kind, n = p
        out = []
        for k in (1, 2):
            if k > n:
                continue
            if kind == "c":
                out.append((("r", n - k),) if n > k else ())
            else:
                for a in range(0, (n - k) // 2 + 1):
                    out.append(tuple(("r", x) for x in (a, n - k - a) if x))
        return out

    def split(p):
        return list(p) if isinstance(p, tuple) and (not p or isinstance(p[0], tuple)) else None

    game = grundy.Game(options, components=split)
    plain = grundy.Game(
        lambda s: [
            tuple(sorted(s[:i] + s[i + 1 :] + o)) for i, p in enumerate(s) for o in options(p)
        ]
    )
    q = grundy.misere_quotient(game, positions=[("c", n) for n in range(1, 9)])
    comps = [c for c in q.components if c is not None]
    assert ("c", 8) in comps and ("r", 7) in comps
    checked = 0

    def sums(start, left, acc):
        yield acc
        for i in range(start, len(comps)):
            if comps[i][1] <= left:
                yield from sums(i, left - comps[i][1], acc + [comps[i]])

    for s in sums(0, 12, []):
        pos = tuple(sorted(s))
        want = plain.misere_outcome(pos)
        assert q.outcome(pos) == want, pos
        move = q.winning_move(pos)
        if move is None:
            assert want == "P" or not pos, pos
        else:
            rest = list(pos)
            assert rest.pop(move["index"]) == move["from"]
            assert plain.misere_outcome(tuple(sorted(rest + list(move["to"])))) == "P", pos
        checked += 1
    assert checked > 500
    with pytest.raises(ValueError, match="more than 5 component positions"):
        grundy.misere_quotient(game, positions=[("c", 9)], max_components=5)
    with pytest.raises(ValueError, match="positions="):
        grundy.misere_quotient(game)
    with pytest.raises(ValueError, match="max_heap="):
        grundy.misere_quotient(game, max_heap=5, positions=[("c", 3)])


def test_misere_census_records_and_resumes(tmp_path):
    db = tmp_path / "c.sqlite3"
    r = grundy.misere_census(["0.5?"], 30, timeout=30, catalogue=db)
    assert (r["codes"], r["skipped"]) == (8, 0)
    row = {x["code"]: x for x in r["rows"]}["0.52"]
    assert (row["order"], row["certified"], row["finish"]) == (6, True, "certified")
    again = grundy.misere_census("0.5?", 30, timeout=30, catalogue=db)
    assert again["skipped"] == 8 and again["rows"] == r["rows"]
    listed = grundy.misere_catalogue("0.5?", db=db)
    assert listed["count"] == 8 and listed["quotients"] == r["rows"]
    cli = run_cli("catalogue", "--misere", "0.52", "--db", str(db))
    assert cli["quotients"] == [row]
    # Kayles needs heap 167 for its certificate: stopped after a millisecond, recorded honestly.
    part = grundy.misere_census("0.77", 200, timeout=0.001, catalogue=db)["rows"][0]
    assert (part["finish"], part["certified"]) == ("stopped", False)
    assert part["computed_to_heap"] < 167
    with pytest.raises(ValueError, match="timeout"):
        grundy.misere_census("0.5?", timeout=-2)


def test_the_chapters_python_examples():
    """Every ```python block of docs/misere.md, run as a doctest."""
    import doctest
    import re

    from conftest import ROOT

    text = (ROOT / "docs" / "misere.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = doctest.DocTestParser().get_doctest(block, {}, f"misere.md[{i}]", "misere.md", 0)
        runner.run(test)
    assert runner.failures == 0


def nim_genus(heaps):
    """The genus of a misère Nim position (Conway): fickle positions 0^120 and 1^031, firm
    ones g^(g, g^2)."""
    g = functools.reduce(lambda a, b: a ^ b, heaps, 0)
    if all(h <= 1 for h in heaps):
        return "0^120" if g == 0 else "1^031"
    digits = [g, g ^ 2]
    if max(digits) > 9:
        return f"{g}^({','.join(map(str, digits))})"
    return f"{g}^{''.join(map(str, digits))}"


def test_tame_genus_matches_the_cli_and_conways_recursion():
    q = grundy.misere_quotient("0.52")
    assert q.tame and q.report["recognised"] == "T2"
    assert q.genus == run_cli("misere-quotient", "0.52")["genus"]
    direct = grundy.misere_genus("0.52", q.computed_to_heap)["genus"]
    assert q.genus == direct
    cli = run_cli("misere-quotient", "0.52", "--position", "3", "8", "13")
    assert q.genus_of([3, 8, 13]) == cli["position"]["genus"]
    # A certified quotient gives the genus of heaps beyond its range too.
    assert q.genus_of([1000]) == q.genus_of([1000 - 4])
    # Each element's genus is that of the Nim position it stands for.
    for e in q.report["element_genus"]:
        heaps = [int(h) for h in e["nim"].replace("*", "").split("+")]
        assert e["genus"] == nim_genus(heaps)


def test_nim_itself_reads_as_nim_and_wild_quotients_have_no_genus():
    q = grundy.misere_quotient(all_but=[], max_heap=15)
    assert q.report["recognised"] == "T4"
    for heaps in ([5], [2, 2], [1, 1, 1], [3, 9, 12], [7, 1], []):
        assert q.genus_of(heaps) == nim_genus(heaps), heaps
    wild = grundy.misere_quotient("0.75")
    assert not wild.tame and wild.genus is None and wild.genus_of([1, 2]) is None
    assert wild.report["element_genus"] is None and wild.report["genus_note"] is None
    with pytest.raises(ValueError, match="beyond the partial quotient"):
        grundy.misere_quotient("0.07", max_heap=8).genus_of([9])


def test_a_tame_game_of_ones_own_gives_the_genus_of_its_positions():
    def moves(n):  # 0.52 as a game: remove 1 (the last, or splitting the rest in two), or 2
        out = [()] if n == 1 else []
        out += [(a, n - 1 - a) for a in range(1, (n - 1) // 2 + 1)]
        out += [(n - 2,)] if n > 2 else []
        return out

    game = grundy.Game(moves, components=grundy.tuple_components)
    q = grundy.misere_quotient(game, positions=[12])
    code = grundy.misere_quotient("0.52")
    for pos in [(3,), (5, 7), (3, 8), (12,), (4, 4, 1)]:
        assert q.genus_of(pos) == code.genus_of(list(pos)), pos
