"""Your own game: rules as Python callables, evaluated by the library's Rust engine."""

from __future__ import annotations

from . import _check
from . import _grundy
from . import _runs
from ._sequence import Sequence

# typing is only read by type checkers: not importing it halves `import grundy`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import Any, Callable, Dict, Hashable, Iterable, List, Optional, Tuple, Union

    from ._misere import GameMisereQuotient

#: The longest sequence :meth:`Game.sequence` computes (the values are kept in memory).
MAX_SEQUENCE = 100_000_000


def tuple_components(position: Any) -> Optional[List[Any]]:
    """Components for a game whose sums are tuples: a ``tuple`` is the disjunctive sum of its
    items, any other position (an int, a string, a subclass of tuple such as a namedtuple)
    does not split.

    Give it as ``Game(options, components=grundy.tuple_components)``: the engine then reads
    tuples itself, without calling Python for every option, which is what makes a game such
    as Grundy's game (a move leaves a pair of heaps) fast. Calling it yourself gives the same
    answer:

    >>> import grundy
    >>> grundy.tuple_components((3, 5)), grundy.tuple_components(8)
    ([3, 5], None)
    """
    return list(position) if type(position) is tuple else None


def _progress(progress: object) -> Tuple[Any, float]:
    """The reporter handed to the engine and how long a query runs before its first report."""
    if progress is None:
        if not _runs._interactive():
            return None, 0.0
        return _runs._LateBar("grundy.Game", True, " values"), _runs.BAR_AFTER_SECONDS
    if progress is True:
        return _runs._LateBar("grundy.Game", True, " values"), 0.0
    if progress is False:
        return None, 0.0
    if not callable(progress):
        raise TypeError(
            f"progress must be None, True, False or a callable(done, total), not "
            f"{type(progress).__name__}"
        )
    return progress, 0.0


def _callable(name: str, f: object, required: bool = False) -> None:
    if f is None and not required:
        return
    if not callable(f):
        raise TypeError(f"{name} must be a function of a position, not {type(f).__name__}")


class Game:
    """An impartial game of your own, given by its rules, evaluated by the Rust engine.

    ``options(p)`` returns the positions one move reaches from ``p`` (a list or any iterable;
    empty for a terminal position). Positions may be any hashable Python values (ints, tuples,
    frozensets, strings, your own classes with ``__hash__`` and ``__eq__``); the game must be
    finite (every play ends): a loop raises ``ValueError`` naming a position on it.

    ``components(p)``, optional, returns ``None`` when ``p`` does not split, or the list of
    independent parts whose disjunctive sum ``p`` is (each part strictly simpler than ``p``;
    terminal parts may be left out). Normal-play values then use the Sprague-Grundy theorem
    (primer paper, section 1): the value of a sum is the nim-sum of its parts' values, and only
    the parts are stored. Misere and multiplayer play ignore it (sums do not behave there), so
    they, and the moves from a position that splits, need ``options`` of every position.
    ``components=grundy.tuple_components`` (a tuple is the sum of its items) is read by the
    engine itself, with no Python call per position.

    ``canonical(p)``, optional, maps a position to a representative of the same game up to
    isomorphism (a sorted tuple of heaps, the least image under a symmetry), so that equivalent
    positions share one table entry. It is applied to every position and part the engine
    stores, in misere and multiplayer play too: a map that keeps only the normal-play value
    (two different games with the same Grundy value) would give wrong misere answers.

    The engine is iterative (a million-deep chain needs no recursion limit), keeps its tables
    between calls on the same object (a second query is cheap), checks for Ctrl-C as it goes,
    and an exception raised in your callback reaches you unchanged, with its traceback.
    ``max_positions=N`` bounds each table (normal, misere, each multiplayer profile): a query
    that would store more raises ``ValueError`` ("too large to brute-force"); by default there
    is no bound, so a game too large for memory is stopped with Ctrl-C.

    Long queries: Ctrl-C (or a notebook's interrupt) raises ``KeyboardInterrupt`` within a few
    hundred callback calls; the values finished so far stay in the tables, so asking again
    continues from there. ``progress``: by default a tqdm bar on stderr once a query has
    lasted a second, on a terminal or in a notebook, when tqdm is installed (``True``: at once,
    ``False``: never), or your own ``callable(done, total)``, called about every 0.1 s and once
    more at the end: ``done`` is the number of positions explored so far by the query
    (``total`` None), or during :meth:`sequence` the values finished (``total`` = n + 1).

    Example, Grundy's game (split a heap into two unequal non-empty heaps), a heap being an int
    and a move leaving a pair of heaps, which ``components`` splits:

    >>> import grundy
    >>> game = grundy.Game(
    ...     options=lambda p: [(a, p - a) for a in range(1, (p + 1) // 2)],
    ...     components=grundy.tuple_components,
    ... )
    >>> game.grundy_value(13), game.outcome(13), game.winning_moves(13)
    (3, 'N', [(5, 8)])
    >>> game.sequence(20).values
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
    """

    __slots__ = ("_engine",)

    def __init__(
        self,
        options: Callable[[Any], Iterable[Any]],
        components: Optional[Callable[[Any], Optional[Iterable[Any]]]] = None,
        canonical: Optional[Callable[[Any], Any]] = None,
        *,
        max_positions: Optional[int] = None,
        progress: Union[None, bool, Callable[[int, Optional[int]], Any]] = None,
    ) -> None:
        _callable("options", options, required=True)
        _callable("components", components)
        _callable("canonical", canonical)
        limit = None if max_positions is None else _check.u64("max_positions", max_positions)
        tuples = components is tuple_components
        report, delay = _progress(progress)
        self._engine = _grundy.GameEngine(
            options, None if tuples else components, canonical, limit, tuples, report, delay
        )

    def grundy_value(self, position: Hashable) -> int:
        """The Sprague-Grundy value of ``position`` (normal play: the last player to move
        wins), the mex of its options' values."""
        return self._engine.grundy_value(position)

    def outcome(self, position: Hashable) -> str:
        """``"P"`` (the player to move loses: value 0) or ``"N"`` (the player to move wins)."""
        return "P" if self._engine.grundy_value(position) == 0 else "N"

    def options_with_values(self, position: Hashable) -> List[Tuple[Any, int]]:
        """Every option of ``position`` with its value, ``[(option, value), ...]``, in the
        order ``options`` gives them."""
        return self._engine.options_with_values(position)

    def moves_to(self, position: Hashable, target: int) -> List[Any]:
        """Every option of value ``target``. By the definition of mex there is one for every
        target below the position's value, and none for the value itself."""
        t = _check.number("target value", target)
        return [o for o, v in self._engine.options_with_values(position) if v == t]

    def winning_moves(self, position: Hashable) -> List[Any]:
        """Every winning move: the options of value 0 (none from a P-position)."""
        return self.moves_to(position, 0)

    def misere_outcome(self, position: Hashable) -> str:
        """The outcome in misere play (the player who makes the last move loses): ``"P"`` or
        ``"N"``. A terminal position is ``"N"``."""
        return self._engine.misere_outcome(position)

    def misere_winning_moves(self, position: Hashable) -> List[Any]:
        """The options that are misere P-positions."""
        return self._engine.misere_winning_moves(position)

    def misere_quotient(
        self,
        positions: Iterable[Hashable],
        *,
        timeout: Optional[float] = None,
        max_components: int = 100_000,
        name: Optional[str] = None,
        memory: Optional[str] = None,
        checkpoint: Union[None, str, os.PathLike[str]] = None,
    ) -> GameMisereQuotient:
        """The misère quotient (Plambeck-Siegel) of every sum of the components reachable
        from ``positions``: ``grundy.misere_quotient(self, positions=positions, ...)``."""
        from ._misere import misere_quotient

        q = misere_quotient(
            self,
            timeout=timeout,
            positions=positions,
            max_components=max_components,
            name=name,
            memory=memory,
            checkpoint=checkpoint,
        )
        return q  # type: ignore[return-value]

    def multiplayer(
        self,
        position: Hashable,
        *,
        players: Optional[int] = None,
        order: Optional[Iterable[int]] = None,
        prefs: Optional[Iterable[Iterable[int]]] = None,
    ) -> Dict[str, Any]:
        """Play ``position`` with several players, player 0 first, each playing for the last
        mover it prefers (multiplayer paper, Def. 4.1), as :func:`grundy.multiplayer` does for
        Nim: ``order=[K1, ..., KM]`` for GAMES(K1, ..., KM), ``prefs`` for one order per
        player, neither for Li's GAMES(0, 1, ..., M-1) with ``players`` (default 3).

        Returns ``players``, ``preferences`` and ``orders`` (the profile, as
        :func:`grundy.multiplayer` names them), ``last_mover``, ``position_offset`` (the i of
        "i-position") and the
        principal ``line`` (each step ``player`` and ``position``; positions as stored, i.e.
        through ``canonical`` when given).
        """
        m, k, p = _check.profile(players, order, prefs)
        return self._engine.multiplayer_play(position, m, k, p)

    def sequence(self, n: int, position: Optional[Callable[[int], Any]] = None) -> Sequence:
        """G(position(0)), ..., G(position(n)) for a one-parameter family (by default
        ``position(k) = k``, a heap of k), as a :class:`grundy.Sequence`.

        ``period``/``preperiod`` give the least period the values show (the library's period
        detector), or None: the repetition is *observed, not certified* (``certified`` is
        False), since no periodicity theorem is known for an arbitrary game.
        """
        size = _check.number("sequence length", n, MAX_SEQUENCE)
        _callable("position", position)
        report = self._engine.sequence(size, position)
        values = report.pop("values")
        report["game"] = "game"
        return Sequence._from_list(report, values)

    @property
    def positions_evaluated(self) -> int:
        """How many positions the normal-play table holds (it persists between calls)."""
        return self._engine.positions_evaluated()

    def __repr__(self) -> str:
        return f"<grundy.Game, {self.positions_evaluated} positions evaluated>"
