"""Argument checks shared by the wrappers: the CLI's one-line messages as TypeError/ValueError."""

from __future__ import annotations

# typing is only read by type checkers: not importing it halves `import grundy`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, List, Optional, Tuple

U64_MAX = 2**64 - 1


def _shown(value: int) -> str:
    # Like the CLI, which shows 40 characters of a long word; str() of a huge int is slow
    # (and refused past 4300 digits), so those are described by their size.
    if abs(value) < 10**40:
        return str(value)
    return f"{'-' if value < 0 else ''}<a number of {value.bit_length()} bits>"


def number(what: str, value: object, limit: Optional[int] = None, least: int = 0) -> int:
    """A non-negative int (not a bool), at most ``limit`` when one is given. ``least`` (0 or 1)
    is what the message of a negative one asks for; a 0 where 1 is the least is left to the
    extension, which says why it is refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(
            f"{what} '{_shown(value)}' is negative: give a whole number, {least} or more"
        )
    if limit is not None and value > limit:
        raise ValueError(
            f"{what} '{_shown(value)}' is too large here (at most {limit} for this computation)"
        )
    return value


def threads(value: object) -> int:
    """A thread count as the extension takes it (0: one per core); the extension refuses one
    above its limit with the CLI's words."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"threads must be an int, not {type(value).__name__}")
    if not 0 <= value < 2**32:
        raise ValueError(
            f"threads {_shown(value)} is out of range: give 0 (one per core) or a number of "
            "threads"
        )
    return value


def numbers(what: str, values: Iterable[object], limit: Optional[int] = None) -> List[int]:
    """A list of non-negative ints from any iterable (not a string, not a single int)."""
    if isinstance(values, (str, bytes, int)):
        raise TypeError(
            f"{what}s must be a list (or any iterable) of ints, not {type(values).__name__}"
        )
    try:
        items = list(values)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(
            f"{what}s must be a list (or any iterable) of ints, not {type(values).__name__}"
        ) from None
    return [number(what, v, limit) for v in items]


def u64(what: str, value: object) -> int:
    return number(what, value, U64_MAX)


def u64s(what: str, values: Iterable[object]) -> List[int]:
    return numbers(what, values, U64_MAX)


def optional_u64(what: str, value: object) -> Optional[int]:
    return None if value is None else u64(what, value)


def profile(
    players: object, order: object, prefs: object
) -> Tuple[Optional[int], Optional[List[int]], Optional[List[List[int]]]]:
    """The multiplayer arguments checked: (players, order, prefs), each None when not given."""
    m = None if players is None else number("players", players, 2**32 - 1)
    k = None if order is None else numbers("player offset", order, 2**32 - 1)  # type: ignore[arg-type]
    p = None
    if prefs is not None:
        if isinstance(prefs, (str, bytes)):
            raise TypeError("prefs must be a list of orders (lists of players)")
        p = [numbers("player", o, 2**32 - 1) for o in prefs]  # type: ignore[attr-defined]
    return m, k, p
