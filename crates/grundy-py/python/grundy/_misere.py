"""Misère play: genera of single heaps and misère quotients (Plambeck–Siegel)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import Any, Dict, Hashable, Iterable, List, Optional, Union

    from ._game import Game

from . import _check
from . import _grundy
from . import _runs

#: Default cap on the component positions of a game's quotient (``max_components``).
MAX_COMPONENTS = 100_000


def misere_genus(code: str, n: int = 30) -> Dict[str, Any]:
    """Misère Grundy values and Conway's genus of heaps 0..=n of a take-and-break game, with
    the keys of ``grundy takebreak CODE --misere --json`` (``misere_values``,
    ``normal_values``, ``genus``, ``gamma``).

    >>> misere_genus("kayles", 5)["genus"][5]
    '4^146'
    """
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    return _grundy.misere_genus(code, _check.u64("n", n))


class MisereQuotient:
    """The misère quotient Q_N of a heap game's heaps 0..N (see :func:`misere_quotient`).
    ``report`` holds the keys of ``grundy misere-quotient --json``; the most used are
    attributes: ``order``, ``p_portion_size``, ``certified``, ``computed_to_heap``,
    ``presentation``, ``period``, ``preperiod``, ``finish`` (``certified``, ``max_heap``,
    ``stopped`` by the timeout, ``limit``: stopped by ``memory`` or the engine's cap, named
    in ``limit``; ``complete`` for a game's whole set of components). When the quotient is
    tame (isomorphic to the quotient of misère Nim with heaps below some ``2**k``), ``genus``
    lists Conway's genus of every heap (as ``report["genus"]``; None otherwise) and
    :meth:`genus_of` gives a position's.
    """

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.report: Dict[str, Any] = inner.report()
        self.order: int = self.report["order"]
        self.p_portion_size: int = self.report["p_portion_size"]
        self.certified: bool = self.report["certified"]
        self.computed_to_heap: int = self.report["computed_to_heap"]
        self.presentation: str = self.report["presentation"]
        self.period: Optional[int] = self.report["period"]
        self.preperiod: Optional[int] = self.report["preperiod"]
        self.finish: str = self.report["finish"]
        self.limit: Optional[str] = self.report["limit"]
        self.tame: bool = self.report["tame"]
        self.genus: Optional[List[str]] = self.report["genus"]

    def outcome(self, heaps: Iterable[int]) -> str:
        """``"P"`` or ``"N"``: the misère outcome of the position made of these heaps. Heaps
        beyond a partial (uncertified) quotient raise ``ValueError``."""
        return str(self._inner.outcome(_check.u64s("heap", heaps)))

    def genus_of(self, heaps: Iterable[int]) -> Optional[str]:
        """Conway's genus (e.g. ``"2^20"``) of the position made of these heaps, read from a
        tame quotient; None when the quotient is not tame. Heaps beyond a partial quotient
        raise ``ValueError``."""
        genus: Optional[str] = self._inner.genus(_check.u64s("heap", heaps))
        return genus

    def winning_move(self, heaps: Iterable[int]) -> Optional[Dict[str, Any]]:
        """A move to a misère P-position (``index`` of the heap, ``from``, ``to``: the heaps it
        leaves), or None when there is none."""
        move: Optional[Dict[str, Any]] = self._inner.winning_move(_check.u64s("heap", heaps))
        return move

    def _state(self) -> str:
        if self.certified:
            return "certified"
        if self.finish == "complete":
            return "complete"
        return f"partial, heaps 0..{self.computed_to_heap}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.report['code']!r}: order {self.order}, "
            f"|P| = {self.p_portion_size}, {self._state()})"
        )


class GameMisereQuotient(MisereQuotient):
    """The misère quotient of every sum of a :class:`grundy.Game`'s components reachable from
    some start positions (see :func:`misere_quotient`). A heap of the report is a component's
    number: ``components[k]`` is component ``k`` (``components[0]`` is None, the empty sum),
    and ``report["pretending_function"][k]`` its image. ``finish`` is ``complete`` when every
    component was computed (the quotient of the whole set; there is no periodicity
    certificate for a finite set, so ``certified`` is False).
    """

    def __init__(self, inner: Any, game: Game) -> None:
        super().__init__(inner)
        self._game = game
        self.components: List[Any] = inner.components()

    def outcome(self, position: Hashable) -> str:  # type: ignore[override]
        """``"P"`` or ``"N"``: the misère outcome of ``position`` (any sum of the components,
        split by the game's ``components``), from the quotient."""
        return str(self._inner.outcome(position))

    def winning_move(self, position: Hashable) -> Optional[Dict[str, Any]]:  # type: ignore[override]
        """A misère winning move: ``{"index": i, "from": c, "to": o}`` moves component ``c``
        (number ``i`` of the position's components, in the order the game's ``components``
        gives them) to its option ``o``, so that the sum lies in the P-portion; None when
        there is none. Only options of single components are asked for."""
        move: Optional[Dict[str, Any]] = self._inner.winning_move(position)
        return move

    def genus_of(self, position: Hashable) -> Optional[str]:  # type: ignore[override]
        """Conway's genus of ``position`` (any sum of the components) when the quotient is
        tame; None otherwise."""
        genus: Optional[str] = self._inner.genus(position)
        return genus

    def word(self, position: Hashable) -> str:
        """The element of the quotient that ``position`` maps to, as a word."""
        return str(self._inner.word(position))


def _memory(memory: object) -> Optional[str]:
    if memory is None or isinstance(memory, str):
        return memory
    raise TypeError(f"memory must be a str such as '512M', not {type(memory).__name__}")


def _timeout(timeout: object) -> Optional[float]:
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout must be a number of seconds, not {type(timeout).__name__}")
    return float(timeout)


def misere_quotient(
    code: Union[str, Game, None] = None,
    max_heap: Optional[int] = None,
    timeout: Optional[float] = None,
    *,
    keep_going: bool = False,
    set: Optional[Iterable[int]] = None,
    all_but: Optional[Iterable[int]] = None,
    positions: Optional[Iterable[Hashable]] = None,
    max_components: int = MAX_COMPONENTS,
    name: Optional[str] = None,
    memory: Optional[str] = None,
    checkpoint: Union[None, str, os.PathLike[str]] = None,
) -> MisereQuotient:
    """The misère quotient (Plambeck–Siegel) of a heap game or of your own game.

    A take-and-break ``code`` (``grundy misere-quotient CODE``) or a subtraction game
    (``set=[1, 3, 4]`` or ``all_but=[2]``, as ``--set``/``--all-but``): Q_N of heaps
    0..``max_heap`` (default 100), stopping early when the periodicity certificate fixes the
    quotient for every heap size (unless ``keep_going``). A :class:`grundy.Game` with
    ``positions=[...]``: the quotient of every sum of the components reachable from those
    positions (at most ``max_components`` of them, else ``ValueError``), as a
    :class:`GameMisereQuotient`; ``name`` names the game in the report.

    ``timeout`` (seconds) and ``memory`` (e.g. ``"512M"``, default ``"2G"``) are budgets: a
    run stopped by either returns the partial quotient reached (``finish`` says which,
    ``certified`` is False). ``checkpoint`` (a file) resumes a run from it and saves the
    quotient reached into it, as ``--checkpoint``. Ctrl-C raises ``KeyboardInterrupt``.

    >>> q = misere_quotient("0.75")
    >>> q.order, q.p_portion_size, q.presentation
    (8, 2, '<a,b,c | a2=1, b3=b, bc=ab, c2=b2>')
    >>> q.outcome([1, 2]), q.winning_move([2])
    ('N', {'index': 0, 'from': 2, 'to': [1]})
    >>> misere_quotient(set=[1, 3, 4]).report["recognised"]
    'T2'
    """
    from ._game import Game

    t = _timeout(timeout)
    mem = _memory(memory)
    path = _runs.path_or_none("checkpoint", checkpoint)
    if isinstance(code, Game):
        if max_heap is not None or set is not None or all_but is not None or keep_going:
            raise ValueError(
                "max_heap=, set=, all_but= and keep_going= are for heap games: a game's "
                "quotient covers every component reachable from positions="
            )
        if positions is None:
            raise ValueError("give the start positions of the game: positions=[...]")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        start = list(positions)
        cap = _check.u64("max_components", max_components)
        game_inner = _grundy.misere_quotient_game(
            code._engine, start, name or "game", cap, t, mem, path
        )
        return GameMisereQuotient(game_inner, code)
    if positions is not None or name is not None or max_components != MAX_COMPONENTS:
        raise ValueError("positions=, name= and max_components= are for a grundy.Game")
    if code is not None and not isinstance(code, str):
        raise TypeError(f"code must be a str or a grundy.Game, not {type(code).__name__}")
    s = None if set is None else _check.u64s("subtraction", set)
    e = None if all_but is None else _check.u64s("excluded number", all_but)
    if [code, s, e].count(None) != 2:
        raise ValueError("give one game: a code, a grundy.Game, set= or all_but=")
    limit = _check.u64("max_heap", 100 if max_heap is None else max_heap)
    inner = _grundy.misere_quotient_compute(code, limit, t, bool(keep_going), s, e, mem, path)
    return MisereQuotient(inner)


def misere_census(
    codes_or_pattern: Union[str, Iterable[str]],
    max_heap: int = 100,
    *,
    timeout: Optional[float] = None,
    memory: Optional[str] = None,
    jobs: int = 1,
    catalogue: Union[None, bool, str, os.PathLike[str]] = None,
    recompute: bool = False,
) -> Dict[str, Any]:
    """The misère quotient of every take-and-break code of ``codes_or_pattern`` (a code, a
    pattern such as ``"0.??"``, or a list of them), as ``grundy census PATTERN
    --misere-quotients``: each up to heap ``max_heap`` (fewer when certified), within
    ``timeout`` seconds and ``memory`` (e.g. ``"512M"``) each, ``jobs`` codes at a time.

    ``catalogue=True`` records a row per code in the CLI's catalogue (``$GRUNDY_DB``, else the
    user data directory), ``catalogue=path`` in that file; the census is then resumable: codes
    recorded certified, to ``max_heap``, or stopped by a timeout at least as long are taken
    from it (``recompute=True`` computes them again). A code stopped by its timeout is recorded
    with its partial quotient: ``certified`` False, ``finish`` ``"stopped"``,
    ``computed_to_heap`` the heap reached. Ctrl-C raises ``KeyboardInterrupt`` (finished codes
    are kept).

    Returns the dict of ``--json``: ``pattern``, ``max_heap``, ``timeout``, ``codes``,
    ``certified``, ``skipped``, ``interrupted``, ``seconds``, ``db`` and ``rows`` (``code``,
    ``computed_to_heap``, ``certified``, ``finish``, ``order``, ``p_portion_size``,
    ``period``, ``preperiod``, ``presentation``, ...).

    >>> r = misere_census("0.5?", 30)
    >>> [(x["code"], x["order"], x["certified"]) for x in r["rows"]][2]
    ('0.52', 6, True)
    """
    if isinstance(codes_or_pattern, str):
        patterns = [codes_or_pattern]
    else:
        patterns = list(codes_or_pattern)
        for p in patterns:
            if not isinstance(p, str):
                raise TypeError(f"codes must be str, not {type(p).__name__}")
    if catalogue is None or catalogue is False:
        record, db = False, None
    elif catalogue is True:
        record, db = True, None
    else:
        record, db = True, _runs.path_or_none("catalogue", catalogue)
    return _grundy.misere_census_run(
        patterns,
        _check.u64("max_heap", max_heap),
        _timeout(timeout),
        _memory(memory),
        _check.u64("jobs", jobs),
        record,
        db,
        bool(recompute),
    )


def misere_catalogue(
    pattern: Optional[str] = None, *, db: Union[None, str, os.PathLike[str]] = None
) -> Dict[str, Any]:
    """The misère quotients recorded by :func:`misere_census` (and ``grundy census
    --misere-quotients``): the dict of ``grundy catalogue --misere --json`` (``db``,
    ``count``, ``quotients``), only the codes of ``pattern`` when given. Never writes."""
    if pattern is not None and not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str, not {type(pattern).__name__}")
    return _grundy.misere_catalogue_list(pattern, _runs.path_or_none("db", db))


__all__: List[str] = [
    "GameMisereQuotient",
    "MisereQuotient",
    "misere_catalogue",
    "misere_census",
    "misere_genus",
    "misere_quotient",
]
