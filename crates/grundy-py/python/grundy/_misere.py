"""Misère play: genera of single heaps and misère quotients (Plambeck–Siegel)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, List, Optional

from . import _check
from . import _grundy


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
    """The misère quotient Q_N of a take-and-break game's heaps 0..N (see
    :func:`misere_quotient`). ``report`` holds the keys of ``grundy misere-quotient --json``;
    the most used are attributes: ``order``, ``p_portion_size``, ``certified``,
    ``computed_to_heap``, ``presentation``, ``period``, ``preperiod``.
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

    def outcome(self, heaps: Iterable[int]) -> str:
        """``"P"`` or ``"N"``: the misère outcome of the position made of these heaps. Heaps
        beyond a partial (uncertified) quotient raise ``ValueError``."""
        return str(self._inner.outcome(_check.u64s("heap", heaps)))

    def winning_move(self, heaps: Iterable[int]) -> Optional[Dict[str, Any]]:
        """A move to a misère P-position (``index`` of the heap, ``from``, ``to``: the heaps it
        leaves), or None when there is none."""
        move: Optional[Dict[str, Any]] = self._inner.winning_move(_check.u64s("heap", heaps))
        return move

    def __repr__(self) -> str:
        state = "certified" if self.certified else f"partial, heaps 0..{self.computed_to_heap}"
        return (
            f"MisereQuotient({self.report['code']!r}: order {self.order}, "
            f"|P| = {self.p_portion_size}, {state})"
        )


def misere_quotient(
    code: str,
    max_heap: int = 100,
    timeout: Optional[float] = None,
    *,
    keep_going: bool = False,
) -> MisereQuotient:
    """The misère quotient of a take-and-break game (``grundy misere-quotient CODE``): Q_N of
    heaps 0..``max_heap``, stopping early when the periodicity certificate fixes the quotient
    for every heap size (unless ``keep_going``), or after ``timeout`` seconds (the partial
    quotient reached is returned). Ctrl-C raises ``KeyboardInterrupt``.

    >>> q = misere_quotient("0.75")
    >>> q.order, q.p_portion_size, q.presentation
    (8, 2, '<a,b,c | a2=1, b3=b, bc=ab, c2=b2>')
    >>> q.outcome([1, 2]), q.winning_move([2])
    ('N', {'index': 0, 'from': 2, 'to': [1]})
    """
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    limit = _check.u64("max_heap", max_heap)
    t: Optional[float] = None
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError(f"timeout must be a number of seconds, not {type(timeout).__name__}")
        t = float(timeout)
    return MisereQuotient(_grundy.misere_quotient_compute(code, limit, t, bool(keep_going)))


__all__: List[str] = ["MisereQuotient", "misere_genus", "misere_quotient"]
