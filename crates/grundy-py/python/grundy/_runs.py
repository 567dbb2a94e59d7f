"""Long runs from Python, on the CLI's run code (crate ``grundy-runs``): progress bars for
sequences and censuses, ``census``, ``catalogue`` (the runs the CLI and Python recorded) and
``verify`` (the papers' exhaustive checks, as ``grundy verify``)."""

from __future__ import annotations

import os
import sys
import time

from . import _check
from . import _grundy

# typing is only read by type checkers: not importing it halves `import grundy`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Optional, Union

    Progress = Union[None, bool, Callable[[int, int], Any]]
    PathLike = Union[str, "os.PathLike[str]"]

# A bar appears once a run has lasted this long (as the CLI's), so quick calls stay silent.
BAR_AFTER_SECONDS = 1.0


def _interactive() -> bool:
    """Whether someone watches: stderr is a terminal, or this is a Jupyter kernel. A log file
    gets no bar (as the CLI's, whose bar is for terminals only)."""
    if "ipykernel" in sys.modules:
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class _LateBar:
    """A tqdm bar on stderr that appears once the run has lasted a second, when someone
    watches (a terminal or a notebook); without tqdm installed, nothing is shown."""

    def __init__(self, what: str, always: bool, unit: Optional[str] = None) -> None:
        self.what = what
        self.unit = unit or (" values" if what.startswith("G(n)") else " codes")
        self.start = time.monotonic()
        self.always = always
        self.bar: Any = None
        if not always and not _interactive():
            self.start = float("inf")  # nobody watches: never show it

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if not self.always and time.monotonic() - self.start < BAR_AFTER_SECONDS:
                return
            try:
                from tqdm.auto import tqdm
            except ImportError:
                self.always = False
                self.start = float("inf")  # never look again
                return
            # no total: a grundy.Game query counts the positions it explores
            unit = self.unit if total is not None else " positions"
            self.bar = tqdm(total=total, desc=self.what, file=sys.stderr, unit=unit)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None  # the next query (of a grundy.Game) gets a bar of its own


def progress_callback(progress: Progress, what: str) -> Any:
    """The callback handed to the extension: None (a bar after a second on a terminal or in a
    notebook, if tqdm is installed), True (a bar at once, if tqdm is installed), False
    (nothing), or the user's own ``callable(done, total)``."""
    if progress is None or progress is True:
        return _LateBar(what, progress is True)
    if progress is False:
        return None
    if not callable(progress):
        raise TypeError(
            f"progress must be None, True, False or a callable(done, total), not "
            f"{type(progress).__name__}"
        )
    return progress


def path_or_none(what: str, value: object) -> Optional[str]:
    """A file name given as str or os.PathLike."""
    if value is None:
        return None
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)  # type: ignore[return-value]
    raise TypeError(f"{what} must be a path (str or os.PathLike), not {type(value).__name__}")


def record_args(record: object) -> tuple:
    """``record=`` as (record, db): False/None, True (the CLI's default catalogue: $GRUNDY_DB,
    else the user data directory) or a catalogue file."""
    if record is None or record is False:
        return False, None
    if record is True:
        return True, None
    return True, path_or_none("record", record)


def census(
    pattern: str,
    n: Optional[int] = None,
    *,
    full: bool = False,
    engine: str = "auto",
    jobs: Optional[int] = None,
    record: Union[bool, PathLike] = False,
    progress: Progress = None,
) -> Dict[str, Any]:
    """Every take-and-break code matching ``pattern`` (``?`` is any octal digit after the point,
    0 or 4 before it: ``"0.??"`` is 64 codes), each computed to ``n`` (default 100000) or to its
    certified period (``full=True``: every value), on ``jobs`` threads (default: every core).

    Returns the dict of ``grundy census --json``: ``pattern``, ``n``, ``until_period``,
    ``codes``, ``certified``, ``seconds`` and ``results`` (one catalogue record per code:
    ``code``, ``n``, ``preperiod``, ``period``, ``certified``, ``max_value``, ``rare_values``,
    ``rare_positions``, ``engine``, ...). ``record=True`` records every result in the CLI's
    catalogue (``$GRUNDY_DB``, else the user data directory), ``record=path`` in that file;
    by default nothing is written. Ctrl-C stops the census (recorded codes stay recorded).

    >>> r = census("0.?7", 2000)
    >>> r["codes"], r["certified"], [x["period"] for x in r["results"]][:4]
    (8, 6, [34, 34, 4, None])
    """
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str, not {type(pattern).__name__}")
    if not isinstance(engine, str):
        raise TypeError(f"engine must be a str, not {type(engine).__name__}")
    rec, db = record_args(record)
    callback = progress_callback(progress, "codes")
    try:
        return _grundy.census_run(
            pattern,
            _check.optional_u64("heap size", n),
            bool(full),
            engine,
            _check.optional_u64("jobs", jobs),
            rec,
            db,
            callback,
        )
    finally:
        if isinstance(callback, _LateBar):
            callback.close()


def catalogue(
    pattern: Optional[str] = None,
    *,
    engine: Optional[str] = None,
    certified: Optional[bool] = None,
    min_n: Optional[int] = None,
    latest: bool = False,
    limit: Optional[int] = None,
    db: Optional[PathLike] = None,
) -> Dict[str, Any]:
    """The runs recorded in the results catalogue (by ``grundy takebreak``, ``grundy census``
    and ``record=`` here): the dict of ``grundy catalogue --json`` (``db``, ``count``, ``runs``).

    Filters as the CLI's: ``pattern`` (a code or a census pattern such as ``"0.??"``),
    ``engine`` (``"sparse"``, ``"naive"``), ``certified`` (True/False), ``min_n``, ``latest``
    (the latest run of each code), ``limit`` (the most recent K). ``db`` is the catalogue file
    (default: ``$GRUNDY_DB``, else the CLI's file in the user data directory). Listing never
    creates or changes anything.
    """
    if pattern is not None and not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str, not {type(pattern).__name__}")
    if engine is not None and not isinstance(engine, str):
        raise TypeError(f"engine must be a str, not {type(engine).__name__}")
    if certified is not None and not isinstance(certified, bool):
        raise TypeError(f"certified must be None, True or False, not {type(certified).__name__}")
    return _grundy.catalogue_list(
        pattern,
        engine,
        certified,
        _check.optional_u64("min_n", min_n),
        bool(latest),
        _check.optional_u64("limit", limit),
        path_or_none("db", db),
    )


def verify(
    check: str,
    *,
    heaps: Optional[int] = None,
    max_heap: Optional[int] = None,
    players: Optional[int] = None,
    coins: Optional[int] = None,
    max_square: Optional[int] = None,
    max_boxes: Optional[int] = None,
) -> Dict[str, Any]:
    """An exhaustive check of a paper's closed form against the generic evaluator, as
    ``grundy verify CHECK``: ``"nim"`` (heaps, max_heap), ``"multiplayer"`` (players, heaps,
    max_heap), ``"cdnim"`` (heaps, max_heap), ``"welter"`` (coins, max_square) or
    ``"quotient-theorem"`` (max_boxes); parameters left out take the CLI's defaults.

    Returns the dict of ``grundy verify ... --json``: ``check``, ``scope``,
    ``positions_checked``, ``holds`` and the first ``counterexample`` (``None`` when it holds);
    for ``"multiplayer"`` both checks under ``checks``.

    >>> r = verify("cdnim", heaps=3, max_heap=20)
    >>> r["positions_checked"], r["holds"]
    (1540, True)
    """
    if not isinstance(check, str):
        raise TypeError(f"check must be a str, not {type(check).__name__}")
    given = {
        "heaps": heaps,
        "max_heap": max_heap,
        "players": players,
        "coins": coins,
        "max_square": max_square,
        "max_boxes": max_boxes,
    }
    # Named as the caller wrote them (keywords, not the CLI's flags).
    values = {k: _check.optional_u64(k, v) for k, v in given.items()}
    return _grundy.verify_check(check, **values)
