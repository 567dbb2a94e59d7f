"""Cram and Chomp by the library's pruned search: the code of ``grundy cram`` and
``grundy chomp``, returning what their ``--json`` prints."""

from __future__ import annotations

from . import _check
from . import _grundy
from . import _runs

# typing is only read by type checkers: not importing it halves `import grundy`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import Any, Callable, Dict, Iterable, Optional, Union

    Progress = Union[None, bool, Callable[[int, Optional[int]], Any]]


def _size(rows: object, cols: object) -> Optional[str]:
    """The ``RxC`` text of ``rows, cols`` (ints), or ``rows`` given as text (``"3x4"``)."""
    if rows is None and cols is None:
        return None
    if isinstance(rows, str):
        if cols is not None:
            raise TypeError("give the size as rows and cols (ints) or as one text 'RxC', not both")
        return rows
    if rows is None or cols is None:
        raise TypeError("give both rows and cols (or the size as one text, e.g. '3x4')")
    return f"{_check.number('rows', rows)}x{_check.number('cols', cols)}"


def _one_of(size: Optional[str], other: object, name: str, example: str) -> None:
    if (size is None) == (other is None):
        raise ValueError(f"give exactly one of a size (e.g. {example}) and {name}=")
    if other is not None and not isinstance(other, str):
        raise TypeError(f"{name} must be a str, not {type(other).__name__}")


def _flags(
    memory: object,
    outcome_only: object,
    moves: object,
    checkpoint: object,
    checkpoint_every: object,
    threads: object,
) -> Dict[str, Any]:
    """The keyword arguments shared by :func:`cram` and :func:`chomp`, type-checked (the
    extension checks the values, with the CLI's words)."""
    if not isinstance(memory, str):
        raise TypeError(f"memory must be a str such as '512M', not {type(memory).__name__}")
    if checkpoint_every is not None and (
        isinstance(checkpoint_every, bool) or not isinstance(checkpoint_every, (int, float))
    ):
        raise TypeError(
            f"checkpoint_every must be a number of seconds, not {type(checkpoint_every).__name__}"
        )
    workers = _check.threads(threads)
    return {
        "memory": memory,
        "outcome_only": bool(outcome_only),
        "moves": bool(moves),
        "checkpoint": _runs.path_or_none("checkpoint", checkpoint),
        "checkpoint_every": None if checkpoint_every is None else float(checkpoint_every),
        "threads": workers,
    }


def cram(
    rows: Union[int, str, None] = None,
    cols: Optional[int] = None,
    *,
    board: Optional[str] = None,
    memory: str = "512M",
    outcome_only: bool = False,
    moves: bool = True,
    progress: Progress = None,
    checkpoint: Union[None, str, "os.PathLike[str]"] = None,
    checkpoint_every: Optional[float] = None,
    threads: int = 1,
) -> Dict[str, Any]:
    """Cram: players in turn place a domino on two adjacent empty cells; who cannot, loses.

    On a ``rows`` x ``cols`` rectangle (or ``rows="3x4"``), or on any ``board`` drawn as text,
    one line per row, ``.`` an empty cell and ``#`` a blocked one (the text ``grundy cram
    --board FILE`` reads); at most 64 cells. Returns the keys of ``grundy cram --json``:
    ``grundy_value`` (None with ``outcome_only=True``), ``outcome``, ``winning_moves`` (each
    ``{'cells': [[r1, c1], [r2, c2]]}``, 0-based; None with ``moves=False``), ``search``
    (nodes, positions stored and replaced, table bytes) and ``symmetric`` (the half-turn
    symmetry theorem decides the board). ``memory`` is the transposition table's budget
    (``"64M"``, ``"2G"``). ``progress``: as for :class:`Game` (a tqdm bar once the search has
    lasted a second; ``progress(nodes, None)`` for a callable). Ctrl-C raises
    ``KeyboardInterrupt``.

    ``checkpoint=path`` keeps the search's table in that file (the CLI's ``--checkpoint FILE``,
    the same format): loaded first when it exists, saved every ``checkpoint_every`` seconds
    (default 30), at the end, and when Ctrl-C (or a kernel interrupt) stops the search — the
    table is saved, a line on stderr says so, then ``KeyboardInterrupt`` is raised, and the same
    call resumes from what the search knew. ``threads=N`` searches on N threads sharing one
    table (0: one per core; the answer is the same, ``search['nodes']`` varies); it does not go
    with ``checkpoint``. Bad values raise ``ValueError`` with the CLI's one-line message, the
    flag named as the keyword (``threads 300 is too many: ...``).

    >>> cram(3, 4)["grundy_value"]
    1
    >>> cram(board="...")["winning_moves"]
    [{'cells': [[0, 0], [0, 1]]}, {'cells': [[0, 1], [0, 2]]}]
    """
    size = _size(rows, cols)
    _one_of(size, board, "board", "cram(3, 4)")
    flags = _flags(memory, outcome_only, moves, checkpoint, checkpoint_every, threads)
    callback = _runs.progress_callback(progress, "grundy.cram")
    return _grundy.cram_position(size, board, flags, callback)


def chomp(
    rows: Union[int, str, None] = None,
    cols: Optional[int] = None,
    *,
    shape: Union[str, Iterable[int], None] = None,
    memory: str = "512M",
    outcome_only: bool = False,
    moves: bool = True,
    progress: Progress = None,
    checkpoint: Union[None, str, "os.PathLike[str]"] = None,
    checkpoint_every: Optional[float] = None,
    threads: int = 1,
) -> Dict[str, Any]:
    """Chomp: bite a square and everything above and to the right of it; the poisoned
    bottom-left square cannot be taken, so who faces it alone loses.

    On a ``rows`` x ``cols`` bar (or ``rows="4x5"``), or on any Young-diagram ``shape``: row
    lengths, the poisoned row first, as a list (``[5, 3, 3, 1]``) or as the text ``grundy chomp
    --shape`` reads (``"5,3,3,1"``); rows plus columns at most 64. Returns the keys of ``grundy
    chomp --json``: ``rows``, ``squares``, ``grundy_value``, ``outcome``, ``winning_moves``
    (each ``{'row': r, 'col': c}``, 0-based from the poison) and ``search``; ``memory``,
    ``outcome_only``, ``moves``, ``progress``, ``checkpoint``, ``checkpoint_every`` and
    ``threads`` as for :func:`cram`.

    >>> chomp(shape=[3, 1])["winning_moves"]
    [{'row': 0, 'col': 2}]
    >>> chomp(4, 5, outcome_only=True, moves=False)["outcome"]
    'N'
    """
    size = _size(rows, cols)
    if shape is not None and not isinstance(shape, str):
        shape = ",".join(str(r) for r in _check.u64s("row length", shape))
    _one_of(size, shape, "shape", "chomp(4, 5)")
    flags = _flags(memory, outcome_only, moves, checkpoint, checkpoint_every, threads)
    callback = _runs.progress_callback(progress, "grundy.chomp")
    return _grundy.chomp_position(size, shape, flags, callback)
