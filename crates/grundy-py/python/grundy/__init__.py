"""grundy: Sprague-Grundy values, outcomes and winning moves of impartial games, on the Rust
engine of the ``grundy`` library.

Every function returns what ``grundy <command> --json`` prints, as Python values: dicts with
the same keys and meanings (``grundy_value``, ``outcome``, ``winning_moves``, ``preperiod``,
``period``, ``certified``, ...), heaps as Python ints of any size where the mathematics allows.
Sequences come as :class:`Sequence` objects (a list, ``to_numpy()``, ``plot()``).

Bad input raises ``TypeError`` (not an int, not a list) or ``ValueError`` (the CLI's one-line
message). Long computations release the GIL and can be interrupted with Ctrl-C.

>>> import grundy
>>> grundy.nim([3, 5, 2])["winning_moves"]
[{'heap': 1, 'from': 5, 'to': 1}]
>>> grundy.takebreak("0.07", until_period=True).period
34
"""

from __future__ import annotations

# typing is only read by type checkers: not importing it halves `import grundy`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from . import _check
from . import _grundy
from . import _runs
from ._display import GameGraph, GraphSpec, YoungDiagram
from ._game import Game, tuple_components
from ._graph import from_networkx, graph, to_networkx
from ._search import chomp, cram
from ._sequence import Sequence

__version__: str = _grundy.__version__

__all__ = [
    "Game",
    "GameGraph",
    "GraphSpec",
    "Sequence",
    "YoungDiagram",
    "cdnim",
    "chomp",
    "cram",
    "from_networkx",
    "graph",
    "multiplayer",
    "multiplayer_explore",
    "multiplayer_li",
    "nim",
    "subtraction",
    "subtraction_sequence",
    "takebreak",
    "takebreak_code",
    "takebreak_cousin",
    "takebreak_fold",
    "takebreak_position",
    "tuple_components",
    "to_networkx",
    "welter",
    "wythoff",
    "young",
    "young_graph",
]


def nim(
    heaps: Iterable[int], *, target: Optional[int] = None, misere: bool = False
) -> Dict[str, Any]:
    """Nim: the value (nim-sum), outcome and every winning move; heaps of any size.

    With ``target=H``: every move to a position of value H (``moves``, and ``reason`` when
    there is none). With ``misere=True``: ``misere_outcome`` and ``misere_winning_moves``
    (multiplayer paper, Thm 2.3). Heaps are 0-based in moves.

    >>> nim([3, 5, 2])
    {'heaps': [3, 5, 2], 'grundy_value': 4, 'outcome': 'N', 'winning_moves': [{'heap': 1, 'from': 5, 'to': 1}]}
    """
    hs = _check.numbers("heap", heaps)
    if not hs:
        raise ValueError("no heaps given (e.g. grundy.nim([3, 5, 2]))")
    t = None if target is None else _check.number("target value", target)
    return _grundy.nim_position(hs, t, bool(misere))


def _set_args(set: Optional[Iterable[int]], all_but: Optional[Iterable[int]]) -> Tuple[Any, Any]:
    if (set is None) == (all_but is None):
        raise ValueError("give exactly one of set= and all_but=")
    if set is not None:
        return _check.u64s("subtraction", set), None
    return None, _check.u64s("excluded number", all_but)  # type: ignore[arg-type]


def subtraction(
    heaps: Iterable[int],
    *,
    set: Optional[Iterable[int]] = None,
    all_but: Optional[Iterable[int]] = None,
    target: Optional[int] = None,
) -> Dict[str, Any]:
    """A subtraction game on several heaps: value, outcome, winning moves (or moves to target).

    Give the finite subtraction set (``set=[1, 3, 4]``) or every positive number except some
    (``all_but=[2, 5]``).

    >>> subtraction([10, 7], set=[1, 3, 4])["grundy_value"]
    1
    """
    s, e = _set_args(set, all_but)
    hs = _check.u64s("heap", heaps)
    if not hs:
        raise ValueError("no heaps given (e.g. grundy.subtraction([10, 7], set=[1, 3, 4]))")
    return _grundy.subtraction_position(hs, s, e, _check.optional_u64("target value", target))


def subtraction_sequence(
    n: int, *, set: Optional[Iterable[int]] = None, all_but: Optional[Iterable[int]] = None
) -> Sequence:
    """G(0..=n) of one heap of a subtraction game, as a :class:`Sequence`.

    >>> subtraction_sequence(12, all_but=[2, 5]).values
    [0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6]
    """
    s, e = _set_args(set, all_but)
    report = _grundy.subtraction_sequence(_check.u64("sequence length", n), s, e)
    values = report.pop("values")
    return Sequence._from_list(report, values)


def wythoff(a: int, b: int) -> Dict[str, Any]:
    """Wythoff's game on heaps (a, b) of any size: outcome and winning moves by the
    golden-ratio formula; ``grundy_value`` by the generic evaluator when (a+1)(b+1) <= 2,000,000
    (else None, with a ``note``).

    >>> wythoff(4, 8)["winning_moves"]
    [{'to': [4, 7]}]
    """
    return _grundy.wythoff_position(_check.number("heap", a), _check.number("heap", b))


def cdnim(heaps: Iterable[int], *, max_moves: int = 100_000) -> Dict[str, Any]:
    """Common-divisor Nim (subtract a common divisor of all heaps from one heap), by the
    paper's Theorem 2.4: ``grundy_value``, ``outcome``, ``lambda``, ``iota``, ``gcd`` and up to
    ``max_moves`` winning moves (``winning_moves_complete``, ``winning_move_count``).

    >>> r = cdnim([6, 3, 2]); (r["grundy_value"], r["lambda"], r["iota"])
    (1, 0, 1)
    """
    hs = _check.numbers("heap", heaps)
    if not hs:
        raise ValueError("no heaps given (e.g. grundy.cdnim([6, 3, 2]))")
    cap = _check.number("max_moves", max_moves, _check.U64_MAX, least=1)
    return _grundy.cdnim_position(hs, cap)


def takebreak(
    code: str,
    n: Optional[int] = None,
    *,
    until_period: bool = False,
    engine: str = "auto",
    checkpoint: Union[None, bool, str, "os.PathLike[str]"] = None,
    checkpoint_every: float = 60.0,
    record: Union[bool, str, "os.PathLike[str]"] = False,
    progress: Union[None, bool, Callable[[int, int], Any]] = None,
    threads: int = 1,
    results: Union[None, str, "os.PathLike[str]"] = None,
    compact_values: bool = False,
) -> Sequence:
    """The Grundy sequence G(0..=n) of a take-and-break game, with its period.

    ``code`` is ``d0.d1d2...`` (e.g. ``"0.07"``, ``".77"``, ``"4.07"``, ``"0.&63;7"``) or a name
    (``kayles``, ``dawsons-kayles``, ``dawsons-chess``, ``officers``, ``grundys-game``).
    ``n`` defaults to 1000; with ``until_period=True`` the run stops as soon as the periodicity
    theorem certifies a period (``n`` is then the limit, by default what fits in 1 GiB of
    memory, at most 10**8 values in Python; a search that stops at its limit says so on stderr
    with the call that goes further, and ``report["until_period_limit"]`` holds the same).
    ``engine`` is ``"auto"`` (for octal codes the faster of rare/common and naive, measured
    during the run, as the CLI), ``"sparse"`` or ``"naive"``.

    Long runs go through the CLI's run code. ``checkpoint=path`` saves the values computed so
    far to that file every ``checkpoint_every`` seconds and when the run is interrupted
    (Ctrl-C, kernel interrupt: the checkpoint is saved, then ``KeyboardInterrupt`` is raised),
    and resumes from it next time (the CLI's ``--checkpoint FILE``: the same file format, so
    either can resume the other's run); ``checkpoint=True`` uses the CLI's default file, removed
    when the run completes; by default nothing is saved. ``record=True`` records the run in the
    CLI's results catalogue (see :func:`catalogue`), ``record=path`` in that file. Progress:
    a tqdm bar on stderr once a run lasts a second, on a terminal or in a notebook, when tqdm
    is installed (``progress=True``: at once, ``False``: never, or your own
    ``callable(done, total)``).

    ``threads`` is the CLI's ``--threads``: with 2 (or 0, one per core) the rare/common engine
    computes its sparse mode as a two-stage pipeline, candidates on one thread and their
    proofs on another (Officers runs about 1.5 times faster in wall time on two free cores); the
    values do not depend on it. ``report["threads"]`` says how many threads computed values.

    ``compact_values=True`` is the CLI's ``--compact-values``: an Officers-like game's values
    (below 512, odd parity under Officers' mask past its last rare heap) kept in one byte each
    from 2^16 values on, the first ones in two: about half the memory for 1.04 to 1.11 times
    the time where the processor has AVX-512 VBMI and GFNI. The values are the same;
    ``report["value_bytes"]`` says how many bytes a value took (2 where they did not fit, with
    the naive engine, or for fewer than 2^16 values).

    ``results=folder`` (the CLI's ``--results DIR``) writes, as the run passes each power of
    two ``N`` from 1024 on, ``folder/CODE/N.txt``: how often each value occurs among
    G(1..=N), the largest value and where it first occurs, the rare heaps and the SHA-256 of
    G(0..=N) (see docs/takebreak.md, "Summaries at powers of two").

    The result's ``period``, ``preperiod`` and ``certified`` give the period found, ``report``
    the CLI's JSON (``code``, ``n``, ``engine``, ``threads``, ``period``, ``max_value``,
    ``value_counts``).

    Example (Dawson's Kayles):

    >>> s = takebreak("0.07", until_period=True)
    >>> s.values[:11], s.preperiod, s.period, s.certified
    ([0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3], 53, 34, True)
    """
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    size = None if n is None else _check.u64("heap size", n)
    if not isinstance(engine, str):
        raise TypeError(f"engine must be a str, not {type(engine).__name__}")
    if isinstance(checkpoint_every, bool) or not isinstance(checkpoint_every, (int, float)):
        raise TypeError(
            f"checkpoint_every must be a number of seconds, not {type(checkpoint_every).__name__}"
        )
    default_place = checkpoint is True
    path = (
        None if checkpoint in (None, False, True) else _runs.path_or_none("checkpoint", checkpoint)
    )
    rec, db = _runs.record_args(record)
    callback = _runs.progress_callback(progress, "G(n) of " + code)
    workers = _check.threads(threads)
    folder = _runs.path_or_none("results", results)
    try:
        report = _grundy.takebreak_sequence(
            code,
            size,
            bool(until_period),
            engine,
            path,
            default_place,
            float(checkpoint_every),
            rec,
            db,
            callback,
            workers,
            folder,
            bool(compact_values),
        )
    finally:
        if isinstance(callback, _runs._LateBar):
            callback.close()
    raw = report.pop("values")
    return Sequence(report, raw)


def takebreak_code(code: str) -> str:
    """The canonical code of a take-and-break game or named game (``"kayles"`` -> ``"0.77"``)."""
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    return _grundy.takebreak_code(code)


def takebreak_position(code: str, heaps: Iterable[int], *, max_moves: int = 1000) -> Dict[str, Any]:
    """A position of several heaps of a take-and-break game: ``heap_values``,
    ``grundy_value``, ``outcome``, up to ``max_moves`` ``winning_moves`` (each: ``heap``,
    ``from``, ``removed`` (negative for a move that adds tokens, as in ``80.0``), ``leaves``).

    >>> takebreak_position("0.77", [5, 7, 9])["grundy_value"]
    2
    """
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    hs = _check.u64s("heap", heaps)
    return _grundy.takebreak_position(
        code, hs, _check.number("max_moves", max_moves, _check.U64_MAX, least=1)
    )


def takebreak_fold(code: str, m: int, *, check_up_to: int = 10_000) -> Dict[str, Any]:
    """The m-fold game B of A (splitting paper, Theorem 6.5) and a check of
    g_B(n) = g_A(floor(n/m)) for n <= check_up_to (``code_b``, ``holds``, ``first_failure``)."""
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    return _grundy.takebreak_fold(
        code, _check.u64("fold", m), _check.u64("check_up_to", check_up_to)
    )


def takebreak_cousin(code: str, *, check_up_to: int = 10_000) -> Dict[str, Any]:
    """The cousin B of A (splitting paper, Theorem 6.6) and a check of g_B(n) = g_A(n+1)
    for n <= check_up_to.

    >>> takebreak_cousin("0.6", check_up_to=1000)["code_b"]
    '0.37'
    """
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    return _grundy.takebreak_cousin(code, _check.u64("check_up_to", check_up_to))


def welter(
    squares: Iterable[int], *, target: Optional[int] = None, value_only: bool = False
) -> Dict[str, Any]:
    """The Sato-Welter game: coins on distinct squares, a move slides a coin to an empty
    smaller square. Value by Welter's formula (hook paper, Theorem 2), outcome and the
    winning moves (``from``, ``to``), or the moves to ``target``.

    >>> welter([2, 3, 5, 7, 11])["grundy_value"]
    4
    """
    sq = _check.u64s("square", squares)
    return _grundy.welter_position(
        sq, _check.optional_u64("target value", target), bool(value_only)
    )


def young(
    parts: Iterable[int],
    *,
    from_beta: bool = False,
    beads: Optional[int] = None,
    core: Optional[int] = None,
    quotient: Optional[int] = None,
    remove_hook: Optional[Tuple[int, int]] = None,
) -> YoungDiagram:
    """A Young diagram as a position of the hook-removal game (hook paper): ``beta``-numbers,
    ``hooks`` (hook lengths row by row), ``grundy_value`` (Welter's formula) and
    ``grundy_value_by_hooks``, winning moves as hooks to remove, the r-``core``, r-``quotient``
    and the ``quotient_theorem`` (Theorem 4). ``from_beta=True`` reads beta-numbers instead of
    parts; ``remove_hook=(row, column)`` (0-based) reports the diagram left.

    The result is a dict (a :class:`YoungDiagram`) that a notebook shows as a picture: the
    boxes with their hook lengths, even hooks shaded, winning hooks outlined; ``.svg()`` gives
    the SVG text (diagrams up to 150 rows and columns).

    >>> young([10, 10, 8, 6, 5, 5, 3, 1])["grundy_value"]
    28
    """
    nums = _check.u64s("beta-number" if from_beta else "part", parts)
    if not nums:
        raise ValueError("no parts given (e.g. grundy.young([3, 2, 1]); [0] is the empty diagram)")
    hook = None
    if remove_hook is not None:
        coords = _check.u64s("box coordinate", remove_hook)
        if len(coords) != 2:
            raise ValueError(f"remove_hook takes (row, column), two numbers; got {len(coords)}")
        hook = (coords[0], coords[1])
    return YoungDiagram(
        _grundy.young_partition(
            nums,
            bool(from_beta),
            None if beads is None else _check.u64("beads", beads),
            _check.optional_u64("core", core),
            _check.optional_u64("quotient", quotient),
            hook,
        )
    )


def young_graph(parts: Iterable[int], *, from_beta: bool = False) -> GraphSpec:
    """The game graph of every diagram reachable by removing hooks, in the format of
    :func:`graph` (node ids like ``"[2, 1]"``); see :func:`to_networkx`. The result is a dict
    (a :class:`GraphSpec`) that a notebook shows as the picture of :func:`graph` of it."""
    nums = _check.u64s("beta-number" if from_beta else "part", parts)
    if not nums:
        raise ValueError("no parts given (e.g. grundy.young_graph([3, 2, 1]))")
    return GraphSpec(_grundy.young_graph(nums, bool(from_beta)))


def multiplayer(
    heaps: Iterable[int],
    *,
    players: Optional[int] = None,
    order: Optional[Iterable[int]] = None,
    prefs: Optional[Iterable[Iterable[int]]] = None,
    subtraction: Optional[Iterable[int]] = None,
    propp: bool = False,
) -> Dict[str, Any]:
    """m players with preference orders (multiplayer paper, section 4) on Nim, or on the
    subtraction game with the finite set ``subtraction``: player 0 moves first, every player
    plays for the best last mover in its own order.

    ``order=[K1, ..., KM]``: symmetric preferences GAMES(K1, ..., KM) (every player wants the
    player K1 turns after itself most, ...); ``prefs=[[...], ...]``: one order of all players
    per player; neither: Li's GAMES(0, 1, ..., M-1) with ``players`` (default 3).
    Returns ``last_mover``, ``position_offset`` (the i of "i-position"), the principal ``line``
    (each step ``player`` and the sorted ``position`` after it), for Nim ``oplus_m`` and
    ``theorem_4_2``, and with ``propp=True`` (3 players) Propp's class N, O, P or Q.

    >>> r = multiplayer([2, 2, 2, 1, 3], players=3); (r["last_mover"], r["position_offset"])
    (0, 0)
    """
    hs = _check.u64s("heap", heaps)
    m, k, p = _check.profile(players, order, prefs)
    s = None if subtraction is None else _check.u64s("subtraction", subtraction)
    return _grundy.multiplayer_position(hs, m, k, p, s, bool(propp))


def multiplayer_li(heaps: Iterable[int], players: int = 3) -> Dict[str, Any]:
    """Nim with ``players`` players under Li's ranking: Li's ``oplus_m`` of the heaps and
    whether the previous player wins (multiplayer paper, Thm 3.1: exactly when oplus_m = 0).

    >>> multiplayer_li([2, 2, 2], players=3)["oplus_m"]
    0
    """
    hs = _check.numbers("heap", heaps)
    m = _check.number("players", players, 2**32 - 1)
    return _grundy.li_nim(hs, m)


def multiplayer_explore(
    players: int,
    *,
    order: Optional[Iterable[int]] = None,
    bound: Union[None, str, Tuple[int, int]] = None,
    total: Optional[int] = None,
    features: int = 3,
    sums: Optional[int] = None,
    dir: Union[None, str, "os.PathLike[str]"] = None,
    csv: Union[None, str, "os.PathLike[str]"] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> Dict[str, Any]:
    """Class tables of Nim with ``players`` players under every symmetric order
    GAMES(K1..KM) (or only ``order``), and the closed forms that fit them, as
    ``grundy multiplayer-explore --json``: ``orders``, each with ``order``, ``status``
    (``"theorem"``, ``"conjecture"`` or ``"no_fit"``), ``form``, ``checked_to`` and
    ``counterexamples``.

    ``bound``: ``"KxN"`` or ``(K, N)``, at most K heaps of at most N (the CLI's defaults
    otherwise); ``total``: only positions of total at most this; ``features``: most features
    per candidate shape (1 to 3); ``sums=P``: also which classes of two parts of at most P
    heaps decide their sum's class; ``dir``: save tables there and resume from them; ``csv``:
    export the tables; ``progress(done, total)``: called as the tables fill.

    >>> r = multiplayer_explore(3, order=[0, 1, 2], bound=(4, 7))
    >>> r["orders"][0]["status"]
    'theorem'
    """
    m = _check.u64("players", players)
    k = None if order is None else _check.numbers("player offset", order, 2**32 - 1)
    if isinstance(bound, tuple):
        if len(bound) != 2:
            raise ValueError("bound must be (K, N): at most K heaps of at most N")
        b: Optional[str] = (
            f"{_check.u64('bound heap count', bound[0])}x{_check.u64('bound largest heap', bound[1])}"
        )
    elif bound is None or isinstance(bound, str):
        b = bound
    else:
        raise TypeError(f"bound must be a str 'KxN' or a tuple (K, N), not {type(bound).__name__}")
    return _grundy.multiplayer_explore(
        m,
        k,
        b,
        _check.optional_u64("total", total),
        _check.u64("features", features),
        _check.optional_u64("sums", sums),
        None if dir is None else str(dir),
        None if csv is None else str(csv),
        progress,
    )


# Long runs on the CLI's run code: censuses, the results catalogue, the papers' checks.
from ._runs import catalogue, census, power_summaries, verify  # noqa: E402

__all__ += ["catalogue", "census", "power_summaries", "verify"]


# The move model shared with `grundy play` and the web page (`grundy serve`).
def play(
    family: str,
    position: Union[Iterable[Union[int, str]], str] = (),
    moves: Iterable[str] = (),
    *,
    set: Optional[Iterable[int]] = None,
    all_but: Optional[Iterable[int]] = None,
    players: Optional[int] = None,
    game: Optional[str] = None,
    graph: Optional[str] = None,
    engine: Optional[str] = None,
    seed: int = 0,
    order: Optional[Iterable[int]] = None,
    prefs: Optional[Iterable[Iterable[int]]] = None,
) -> Dict[str, Any]:
    """A position of ``family`` after ``moves``, as ``grundy play ... --report --json`` reports it.

    ``family`` is ``nim``, ``subtraction`` (with ``set`` or ``all_but``), ``wythoff``,
    ``welter``, ``cram`` (``"3x4"`` or rows of ``.``/``#``), ``chomp`` (``"4x5"`` or row
    lengths), ``multiplayer`` (``players``, ``game``, and the preferences as
    ``grundy play multiplayer`` and the web page take them: ``order=[K1, ..., KM]`` for
    GAMES(K1, ..., KM), or ``prefs=[[...], ...]`` one order per player; default Li's order),
    ``graph`` (``graph``: the JSON text;
    ``position``: an optional start node) or a game spec such as ``takebreak:0.77``. Moves use
    the one move syntax of ``grundy play`` (heap games ``"1 3"``/``"0 2 1"``/``"0 -2"``, Welter
    ``"7 2"``, Cram ``"0 0 0 1"``, Chomp ``"1 2"``, or ``"= POSITION"``), player 0 first. With
    ``engine="perfect"`` or ``"random"`` (seeded by ``seed``) the engine then moves once.

    Returns ``position``, ``state`` (data for pictures), ``to_move``, ``over``,
    ``evaluation``, ``explanation`` (the nim-sum or mex written out), ``best_move``, ``why``
    and ``options`` (each ``move``, ``after``, ``value``, ``good``).

    >>> r = play("nim", [3, 5, 2]); r["best_move"], r["explanation"][1]
    ('1 1', '3 ⊕ 5 ⊕ 2 = 4')
    """
    if not isinstance(family, str):
        raise TypeError("family must be a string such as 'nim'")
    if isinstance(position, str):
        words = position.split()
    else:
        words = [
            str(_check.number("position", p)) if not isinstance(p, str) else p for p in position
        ]
    mv = list(moves)
    if not all(isinstance(m, str) for m in mv):
        raise TypeError("moves must be strings such as '1 3'")
    s = None if set is None else ",".join(str(x) for x in _check.u64s("set", set))
    a = None if all_but is None else ",".join(str(x) for x in _check.u64s("all_but", all_but))
    p, k, pr = _check.profile(players, order, prefs)
    sd = _check.number("seed", seed, 2**64 - 1)
    import json

    return json.loads(
        _grundy.play_report(family, words, mv, s, a, p, game, graph, engine, sd, k, pr)
    )


__all__ += ["play"]

# Misère play: genera of heaps and misère quotients (issue 22).
from ._misere import (  # noqa: E402
    GameMisereQuotient,
    MisereQuotient,
    misere_catalogue,
    misere_census,
    misere_genus,
    misere_quotient,
)

__all__ += [
    "GameMisereQuotient",
    "MisereQuotient",
    "misere_catalogue",
    "misere_census",
    "misere_genus",
    "misere_quotient",
]
