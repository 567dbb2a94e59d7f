"""Type stub of the Rust extension module behind the `grundy` package (crates/grundy-py/src).

Users call the wrappers in `grundy` (which check argument types and signs); these functions
return dicts with the keys of the CLI's --json reports and raise ValueError with the CLI's
one-line message on bad input.
"""

from typing import Any, Callable, Dict, List, Optional, Tuple, Union, final

from typing_extensions import Self

__version__: str

def nim_position(
    heaps: List[int], target: Optional[int] = None, misere: bool = False
) -> Dict[str, Any]:
    """Nim by the nim-sum (misère: multiplayer paper Thm 2.3); heaps of any size."""

def subtraction_sequence(
    n: int, set: Optional[List[int]] = None, all_but: Optional[List[int]] = None
) -> Dict[str, Any]:
    """G(0..=n) of one heap of a subtraction game: {"set", "values"}."""

def subtraction_position(
    heaps: List[int],
    set: Optional[List[int]] = None,
    all_but: Optional[List[int]] = None,
    target: Optional[int] = None,
) -> Dict[str, Any]:
    """Value, outcome and winning moves (or moves to target) of several heaps."""

def wythoff_position(a: int, b: int) -> Dict[str, Any]:
    """Wythoff's game: golden-ratio formula; Grundy value when (a+1)(b+1) <= 2,000,000."""

def cdnim_position(heaps: List[int], max_moves: int = 100000) -> Dict[str, Any]:
    """Common-divisor Nim by Theorem 2.4."""

def welter_position(
    squares: List[int], target: Optional[int] = None, value_only: bool = False
) -> Dict[str, Any]:
    """The Sato-Welter game by Welter's formula (hook paper Thm 2)."""

def li_nim(heaps: List[int], players: int) -> Dict[str, Any]:
    """Li's oplus_m and whether the previous player wins (multiplayer paper Thm 3.1)."""

def multiplayer_position(
    heaps: List[int],
    players: Optional[int] = None,
    order: Optional[List[int]] = None,
    prefs: Optional[List[List[int]]] = None,
    subtraction: Optional[List[int]] = None,
    propp: bool = False,
) -> Dict[str, Any]:
    """Play out heaps of Nim (or of the subtraction game with a finite set) among several
    players with player 0 to move: the keys of `grundy multiplayer --json`."""

def multiplayer_explore(
    players: int,
    order: Optional[List[int]] = None,
    bound: Optional[str] = None,
    total: Optional[int] = None,
    features: int = 3,
    sums: Optional[int] = None,
    dir: Optional[str] = None,
    csv: Optional[str] = None,
    progress: Optional[Any] = None,
) -> Dict[str, Any]:
    """Class tables of multiplayer Nim and the closed-form search (grundy multiplayer-explore)."""

def takebreak_code(code: str) -> str:
    """The canonical text of a code or named game."""

def takebreak_sequence(
    code: str,
    n: Optional[int] = None,
    until_period: bool = False,
    engine: str = "auto",
    checkpoint: Optional[str] = None,
    default_checkpoint: bool = False,
    checkpoint_every: Optional[float] = None,
    record: bool = False,
    db: Optional[str] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
    threads: int = 1,
    results: Optional[str] = None,
    compact_values: bool = False,
) -> Dict[str, Any]:
    """G(0..=n) through the CLI's run code (checkpoint, catalogue record) with the CLI's
    sequence report keys; "values" a `Values` (the run), or native-endian u16 bytes for the
    general engine."""

@final
class Values:
    """G(0..=n) as a run left them: the computed values and the certified period extending
    them, written out in full only by `to_bytes`."""

    def __len__(self) -> int: ...
    def get(self, i: int) -> int:
        """G(i); IndexError past n."""

    def take(self, start: int, step: int, count: int) -> List[int]:
        """G(start), G(start + step), ...: `count` values (the indices of a slice)."""

    def to_bytes(self) -> bytes:
        """G(0..=n) as native-endian u16 bytes."""

def takebreak_position(code: str, heaps: List[int], max_moves: int = 1000) -> Dict[str, Any]:
    """Value, outcome and winning moves of several heaps."""

def takebreak_fold(code: str, m: int, check_up_to: int = 10000) -> Dict[str, Any]:
    """The m-fold game of Theorem 6.5 and its check."""

def takebreak_cousin(code: str, check_up_to: int = 10000) -> Dict[str, Any]:
    """The cousin of Theorem 6.6 and its check."""

def young_partition(
    numbers: List[int],
    from_beta: bool = False,
    beads: Optional[int] = None,
    core: Optional[int] = None,
    quotient: Optional[int] = None,
    remove_hook: Optional[Tuple[int, int]] = None,
) -> Dict[str, Any]:
    """A Young diagram as a hook-removal position (hook paper)."""

MAX_PICTURE_SIDE: int
"""Largest Young diagram a picture shows, in rows and in columns (the CLI's young --svg limit)."""

def young_picture(parts: List[int]) -> List[Dict[str, Any]]:
    """The boxes of the picture of a Young diagram, row by row: row, column, hook_length,
    even_hook (shaded: a move of the even-hook game, hook paper Thm 4) and winning (its hook
    is a winning move); ValueError beyond MAX_PICTURE_SIDE rows or columns."""

def young_graph(numbers: List[int], from_beta: bool = False) -> Dict[str, Any]:
    """The game graph of the diagrams reachable by removing hooks."""

def graph_evaluate(
    spec: Union[str, Dict[str, Any]],
    root: Optional[str] = None,
    all: bool = False,
    misere: bool = False,
    dot: bool = False,
) -> Dict[str, Any]:
    """Evaluate an explicit game graph."""

def loopy_graph_evaluate(
    spec: Union[str, Dict[str, Any]],
    root: Optional[str] = None,
    all: bool = False,
    dot: bool = False,
) -> Dict[str, Any]:
    """Evaluate a game graph that may have cycles: generalized Sprague-Grundy values."""

@final
class GameEngine:
    """The engine behind `grundy.Game` (the user's own game): the callbacks and one memo table
    per reading (normal, misere, each multiplayer profile), kept between calls. An exception
    raised in a callback is re-raised unchanged; a loop or a broken components() is ValueError."""

    def __new__(
        cls,
        options: Any,
        components: Optional[Any] = None,
        canonical: Optional[Any] = None,
        max_positions: Optional[int] = None,
        tuple_sums: bool = False,
        progress: Optional[Any] = None,
        progress_delay: float = 0.0,
    ) -> Self:
        """tuple_sums: exact tuples split into their items, read in Rust (components ignored).
        progress(done, total): called every 0.1 s once a query has lasted progress_delay
        seconds, and at its end (then progress.close(), if it has one)."""

    def grundy_value(self, position: Any) -> int:
        """The normal-play value."""

    def options_with_values(self, position: Any) -> List[Tuple[Any, int]]:
        """Every option (as the callback gave it) with its value."""

    def misere_outcome(self, position: Any) -> str:
        """ "P" or "N" in misere play."""

    def misere_winning_moves(self, position: Any) -> List[Any]:
        """The options that are misere P-positions."""

    def multiplayer_play(
        self,
        position: Any,
        players: Optional[int] = None,
        order: Optional[List[int]] = None,
        prefs: Optional[List[List[int]]] = None,
    ) -> Dict[str, Any]:
        """players, last_mover, position_offset and the principal line, player 0 to move."""

    def sequence(self, n: int, position: Optional[Any] = None) -> Dict[str, Any]:
        """{"n", "values", "period"}: G(position(k)) (G(k) when position is None) for k <= n,
        bottom-up, and the period observed (or None)."""

    def positions_evaluated(self) -> int:
        """Positions in the normal-play table."""

def census_run(
    patterns: List[str],
    n: Optional[int] = None,
    full: bool = False,
    engine: str = "auto",
    jobs: Optional[int] = None,
    record: bool = False,
    db: Optional[str] = None,
    progress: Optional[Callable[[int, int, int, int], Any]] = None,
    recompute: bool = False,
    checkpoint: str = "default",
    checkpoint_every: Optional[float] = None,
    lock_dir: Optional[str] = None,
) -> Dict[str, Any]:
    """Every code matching the patterns on a pool of threads, with the keys of
    `grundy census --json`; progress(done, total, running, left)."""

def census_code(
    code: str,
    n: int,
    until_period: bool = True,
    engine: str = "auto",
    checkpoint: str = "default",
    checkpoint_every: Optional[float] = None,
) -> Dict[str, Any]:
    """One code of a census as a worker computes it: {"record": {...}, "resumed_from": k}."""

@final
class CensusSession:
    """A census whose tasks a Python executor runs (the library's policy: skip what the
    catalogue has, per-code locks, one writer)."""

    def __new__(
        cls,
        patterns: List[str],
        n: Optional[int] = None,
        full: bool = False,
        engine: str = "auto",
        record: bool = False,
        db: Optional[str] = None,
        recompute: bool = False,
        checkpoint: str = "default",
        checkpoint_every: Optional[float] = None,
        lock_dir: Optional[str] = None,
    ) -> Self: ...
    def pending(self) -> List[int]:
        """The indices of the codes still to do, costliest first (submit them in this order)."""

    def code(self, i: int) -> str:
        """The code of index i."""

    def claim(self, i: int) -> Tuple[str, Optional[Dict[str, Any]]]:
        """("mine", task), ("busy", None) or ("done", None)."""

    def complete(self, i: int, result: Dict[str, Any]) -> None:
        """Record the result of code i."""

    def abandon(self, i: int) -> None:
        """Release code i (it did not come back)."""

    def progress(self, running: int) -> Dict[str, int]:
        """done, running, left, total, skipped."""

    def finish(self) -> Dict[str, Any]:
        """The report, once every code is done."""

def catalogue_list(
    pattern: Optional[str] = None,
    engine: Optional[str] = None,
    certified: Optional[bool] = None,
    min_n: Optional[int] = None,
    latest: bool = False,
    limit: Optional[int] = None,
    db: Optional[str] = None,
) -> Dict[str, Any]:
    """The recorded runs, with the keys of `grundy catalogue --json`."""

def power_summaries_list(pattern: Optional[str] = None, db: Optional[str] = None) -> Dict[str, Any]:
    """The recorded summaries at powers of two, as `grundy catalogue --powers --json`."""

def verify_check(
    target: str,
    heaps: Optional[int] = None,
    max_heap: Optional[int] = None,
    players: Optional[int] = None,
    coins: Optional[int] = None,
    max_square: Optional[int] = None,
    max_boxes: Optional[int] = None,
) -> Dict[str, Any]:
    """An exhaustive check, with the keys of `grundy verify TARGET --json`."""

def cram_position(
    size: Optional[str],
    board: Optional[str],
    flags: Dict[str, Any],
    progress: Optional[Callable[[int, Optional[int]], Any]],
) -> Dict[str, Any]:
    """Cram on a "RxC" board or a board drawn as text, with the keys of `grundy cram --json`.

    ``flags`` holds the keyword arguments of :func:`grundy.cram` after ``progress``: memory,
    outcome_only, moves, checkpoint (a path or None), checkpoint_every (seconds or None) and
    threads.

    >>> cram_position("2x2", None, {"memory": "1M", "outcome_only": False, "moves": True,
    ...     "checkpoint": None, "checkpoint_every": None, "threads": 1}, None)["grundy_value"]
    0
    """

def chomp_position(
    size: Optional[str],
    shape: Optional[str],
    flags: Dict[str, Any],
    progress: Optional[Callable[[int, Optional[int]], Any]],
) -> Dict[str, Any]:
    """Chomp on a "RxC" bar or a shape "5,3,3,1", with the keys of `grundy chomp --json`.

    ``flags``: as for :func:`cram_position`.

    >>> chomp_position(None, "2,1", {"memory": "1M", "outcome_only": False, "moves": True,
    ...     "checkpoint": None, "checkpoint_every": None, "threads": 1}, None)["outcome"]
    'P'
    """

def play_report(
    family: str,
    words: List[str],
    moves: List[str],
    set: Optional[str] = None,
    all_but: Optional[str] = None,
    players: Optional[int] = None,
    game: Optional[str] = None,
    graph: Optional[str] = None,
    engine: Optional[str] = None,
    seed: int = 0,
    order: Optional[List[int]] = None,
    prefs: Optional[List[List[int]]] = None,
) -> str: ...

# Misère play (issue 22).

def misere_genus(code: str, n: int) -> Dict[str, Any]:
    """Misère Grundy values and genera of heaps 0..=n, with the keys of
    `grundy takebreak CODE --misere --json`."""

@final
class Quotient:
    """A computed misère quotient (wrapped by :class:`grundy.MisereQuotient`)."""

    def report(self) -> Dict[str, Any]: ...
    def outcome(self, heaps: List[int]) -> str: ...
    def genus(self, heaps: List[int]) -> Optional[str]: ...
    def winning_move(self, heaps: List[int]) -> Optional[Dict[str, Any]]: ...

def misere_quotient_compute(
    code: Optional[str],
    max_heap: int,
    timeout: Optional[float],
    keep_going: bool,
    set: Optional[List[int]] = None,
    all_but: Optional[List[int]] = None,
    memory: Optional[str] = None,
    checkpoint: Optional[str] = None,
) -> Quotient:
    """The misère quotient of heaps up to max_heap, as `grundy misere-quotient CODE` (or
    `--set`/`--all-but`), with `--memory` and `--checkpoint`."""

def misere_census_run(
    patterns: List[str],
    max_heap: int,
    timeout: Optional[float],
    memory: Optional[str],
    jobs: int,
    record: bool,
    db: Optional[str],
    recompute: bool,
) -> Dict[str, Any]:
    """A census of misère quotients, as `grundy census PATTERN --misere-quotients --json`."""

def misere_catalogue_list(
    pattern: Optional[str] = None, db: Optional[str] = None
) -> Dict[str, Any]:
    """The recorded misère quotients, as `grundy catalogue --misere --json`."""

@final
class GameQuotientInner:
    """A computed misère quotient of a game's components (wrapped by
    :class:`grundy.GameMisereQuotient`)."""

    def report(self) -> Dict[str, Any]: ...
    def components(self) -> List[Any]: ...
    def word(self, position: Any) -> str: ...
    def outcome(self, position: Any) -> str: ...
    def genus(self, position: Any) -> Optional[str]: ...
    def winning_move(self, position: Any) -> Optional[Dict[str, Any]]: ...

def misere_quotient_game(
    engine: GameEngine,
    start: List[Any],
    name: str,
    max_components: int,
    timeout: Optional[float] = None,
    memory: Optional[str] = None,
    checkpoint: Optional[str] = None,
) -> GameQuotientInner:
    """The misère quotient of every sum of the components reachable from `start`."""

def _check_panic_guard() -> None:
    """For the tests: a panic inside the extension becomes a RuntimeError, not an abort."""
