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
    from typing import Any, Callable, Dict, Iterable, Optional, Union

    Progress = Union[None, bool, Callable[[int, int], Any]]
    PathLike = Union[str, "os.PathLike[str]"]

# A bar appears once a run has lasted this long (as the CLI's), so quick calls stay silent.
BAR_AFTER_SECONDS = 1.0


def _interactive() -> bool:
    """Whether someone watches: stderr is a terminal, or this is a Jupyter kernel. A log file
    gets no bar (as the CLI's, whose bar is for terminals only)."""
    # a running kernel, not merely ipykernel imported (a test that drives notebooks imports it)
    ipython = sys.modules.get("IPython")
    get_ipython = getattr(ipython, "get_ipython", None)
    shell = get_ipython() if get_ipython is not None else None
    if shell is not None and getattr(shell, "kernel", None) is not None:
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


def _census_bar(callback: Any) -> Any:
    """The census's progress callback ``(done, total, running, left)`` from the user's
    ``progress=``: a bar shows running and left codes beside done/total and the rate; a user's
    callable gets ``(done, total)`` as before."""
    if callback is None:
        return None
    if isinstance(callback, _LateBar):

        def bar(done: int, total: int, running: int, left: int) -> None:
            callback(done, total)
            if callback.bar is not None:
                callback.bar.set_postfix_str(f"{running} running, {left} left", refresh=False)

        return bar
    return lambda done, total, running, left: callback(done, total)


def census(
    codes_or_pattern: Union[str, Iterable[str]],
    n: Optional[int] = None,
    *,
    until_period: bool = True,
    executor: Any = None,
    catalogue: Union[None, bool, PathLike] = None,
    checkpoint_dir: Optional[PathLike] = None,
    checkpoint_every: Optional[float] = None,
    recompute: bool = False,
    full: Optional[bool] = None,
    engine: str = "auto",
    jobs: Optional[int] = None,
    record: Union[None, bool, PathLike] = None,
    progress: Progress = None,
) -> Dict[str, Any]:
    """Every take-and-break code of ``codes_or_pattern`` (a code, a pattern — ``?`` is any
    octal digit after the point, 0 or 4 before it: ``"0.??"`` is 64 codes — or a list of
    them), each computed to ``n`` (default 100000), or only to its certified period when
    ``until_period`` (the default; ``until_period=False`` computes every value).

    Where: ``executor=None`` runs the codes on every core of this machine (``jobs`` threads,
    default and 0: one per core); any ``concurrent.futures.Executor`` (e.g. a
    ``ProcessPoolExecutor``) or a Dask ``distributed.Client`` runs each code as a task (the
    picklable ``grundy._census.compute_code``), and the results come back here. The work per
    code is the library's run (the engines and certificates of :func:`takebreak`).

    ``catalogue=True`` records every result in the CLI's catalogue (``$GRUNDY_DB``, else the
    user data directory), ``catalogue=path`` in that file (``record=`` is the older name); this
    process is the only writer. A census with a catalogue is resumable: codes it already has
    with enough values are taken from it (``recompute=True`` computes them again), a
    ``KeyboardInterrupt`` keeps every finished code, and two censuses on one machine never
    compute a code at the same time. ``checkpoint_dir`` (a directory the workers share) keeps
    each running code's checkpoint there (every ``checkpoint_every`` seconds, default 60): a
    task whose worker died resumes from it. Default: the user data directory;
    ``checkpoint_dir=False``: no checkpoints.

    Returns the dict of ``grundy census --json``: ``pattern``, ``n``, ``until_period``,
    ``codes``, ``certified``, ``seconds``, ``computed``, ``skipped`` (from the catalogue),
    ``resumed``, ``recorded`` and ``results`` (one catalogue record per code, in order:
    ``code``, ``n``, ``preperiod``, ``period``, ``certified``, ``max_value``, ``rare_values``,
    ``rare_positions``, ``engine``, ...).

    >>> r = census("0.?7", 2000)
    >>> r["codes"], r["certified"], [x["period"] for x in r["results"]][:4]
    (8, 6, [34, 34, 4, None])
    """
    if isinstance(codes_or_pattern, str):
        patterns = [codes_or_pattern]
    elif isinstance(codes_or_pattern, (list, tuple)) or hasattr(codes_or_pattern, "__iter__"):
        patterns = list(codes_or_pattern)
        for p in patterns:
            if not isinstance(p, str):
                raise TypeError(f"codes must be str, not {type(p).__name__}")
    else:
        raise TypeError(
            f"codes_or_pattern must be a str or a list of str, not "
            f"{type(codes_or_pattern).__name__}"
        )
    if not isinstance(engine, str):
        raise TypeError(f"engine must be a str, not {type(engine).__name__}")
    if full is not None:
        if not full and not until_period:
            raise ValueError("full=False contradicts until_period=False")
        if full:
            until_period = False
    if record is not None and catalogue is not None:
        raise ValueError("give catalogue= or record= (its older name), not both")
    rec, db = record_args(record if record is not None else catalogue)
    if checkpoint_dir is None:
        checkpoint = "default"
    elif checkpoint_dir is False:
        checkpoint = "off"
    else:
        checkpoint = path_or_none("checkpoint_dir", checkpoint_dir) or "default"
    if checkpoint_every is not None and not isinstance(checkpoint_every, (int, float)):
        raise TypeError(
            f"checkpoint_every must be a number of seconds, not {type(checkpoint_every).__name__}"
        )
    n = _check.optional_u64("heap size", n)
    callback = progress_callback(progress, "codes")
    try:
        if executor is None:
            return _grundy.census_run(
                patterns,
                n,
                not until_period,
                engine,
                _check.optional_u64("jobs", jobs),
                rec,
                db,
                _census_bar(callback),
                bool(recompute),
                checkpoint,
                None if checkpoint_every is None else float(checkpoint_every),
            )
        if jobs is not None:
            raise ValueError("jobs= is for executor=None: an executor has its own workers")
        from . import _census

        session = _grundy.CensusSession(
            patterns,
            n,
            not until_period,
            engine,
            rec,
            db,
            bool(recompute),
            checkpoint,
            None if checkpoint_every is None else float(checkpoint_every),
        )
        return _census.run(session, executor, _census_bar(callback))
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


def power_summaries(
    pattern: Optional[str] = None, *, db: Optional[PathLike] = None
) -> Dict[str, Any]:
    """The summaries at powers of two that long runs recorded (``sequence(...,
    results=DIR, record=...)`` and ``grundy takebreak CODE --results DIR``): the dict of
    ``grundy catalogue --powers --json`` (``db``, ``count``, ``summaries``). Each summary has
    ``code``, ``n`` (a power of two), ``sha256`` of G(0..=n), ``max_value`` and
    ``max_first_at``, ``rare_count`` and ``last_rare``, ``histogram`` (``[value, count]``
    pairs over heaps 1..=n) and ``rare_heaps``. Only the codes of ``pattern`` (a code or a
    census pattern) when given. Listing never creates or changes anything.
    """
    if pattern is not None and not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str, not {type(pattern).__name__}")
    listing = _grundy.power_summaries_list(pattern, path_or_none("db", db))
    for s in listing["summaries"]:
        # pairs as the CLI's JSON has them: lists, not tuples
        s["histogram"] = [list(p) for p in s["histogram"]]
    return listing


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
