"""Grundy sequences G(0..n) as notebook-friendly objects (list or numpy array, ``.plot()``)."""

from __future__ import annotations

import array
import operator

from . import _optional

# typing is only read by type checkers: not importing it halves `import grundy`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional


class Sequence:
    """The Grundy values G(0), ..., G(n) of one heap, with the CLI's report around them.

    The values stay as the engine left them (two bytes each for a take-and-break sequence;
    past a certified period only the values computed): ``len(s)``, ``s[i]`` and ``s[a:b]`` (a
    list) read them without writing out all n + 1; iteration and ``to_numpy()`` (or
    ``numpy.asarray(s)``: a ``uint16`` array, or ``uint64``, over the buffer without a copy,
    when numpy is installed) write out the buffer once; ``values`` and ``tolist()`` build the
    list of ints (once; it is kept). ``plot()`` draws G(n) against n with matplotlib when
    installed.
    ``period``, ``preperiod`` and ``certified`` read the period found (``None`` when none);
    ``report`` is the dict of ``grundy ... --json`` (without the values), ``to_dict()`` the same
    with ``values``.
    """

    __slots__ = ("report", "_raw", "_lazy", "_typecode", "_list")

    def __init__(self, report: Dict[str, Any], raw: Any, typecode: str = "H") -> None:
        self.report = report
        # raw: the values as bytes, or the engine's run (_grundy.Values: the computed values
        # and the period extending them), turned into bytes on first need
        self._lazy = None if isinstance(raw, bytes) else raw
        self._raw = raw if self._lazy is None else b""
        self._typecode = typecode
        self._list: Optional[List[int]] = None

    def _bytes(self) -> bytes:
        if self._lazy is not None:
            self._raw = self._lazy.to_bytes()
            self._lazy = None
        return self._raw

    @classmethod
    def _from_list(cls, report: Dict[str, Any], values: List[int]) -> "Sequence":
        seq = cls(report, b"", "Q")
        seq._list = values
        return seq

    @property
    def values(self) -> List[int]:
        """G(0..n) as a list of ints."""
        if self._list is None:
            self._list = self._view().tolist()
        return self._list

    def tolist(self) -> List[int]:
        """G(0..n) as a list of ints (the same list as ``values``)."""
        return self.values

    def _view(self) -> Any:
        """The values as a memoryview of ints over the buffer (no copy), or the list."""
        if self._list is not None:
            return self._list
        # the typecode is "H" or "Q" (u16 or u64 values); mypy wants a literal here
        return memoryview(self._bytes()).cast(self._typecode)  # type: ignore[call-overload]

    def to_numpy(self) -> Any:
        """G(0..n) as a numpy array (needs numpy)."""
        numpy = _optional.need("numpy", "to_numpy()")

        if self._list is not None and not self._raw and self._lazy is None:
            return numpy.asarray(self._list, dtype=numpy.uint64)
        dtype = numpy.uint16 if self._typecode == "H" else numpy.uint64
        return numpy.frombuffer(self._bytes(), dtype=dtype)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        a = self.to_numpy()
        if dtype is not None:
            return a.astype(dtype)
        return a.copy() if copy else a

    def __getstate__(self) -> Any:
        # a pickle (or a copy) holds the values themselves, not the engine's run
        self._bytes()
        return (self.report, self._raw, self._typecode, self._list)

    def __setstate__(self, state: Any) -> None:
        self.report, self._raw, self._typecode, self._list = state
        self._lazy = None

    def __len__(self) -> int:
        if self._list is not None:
            return len(self._list)
        if self._lazy is not None:
            return len(self._lazy)
        return len(self._raw) // array.array(self._typecode).itemsize

    def __getitem__(self, index: Any) -> Any:
        if self._lazy is not None and not isinstance(index, slice):
            index = operator.index(index)  # an int, a numpy integer, ...
            size = len(self._lazy)
            if not -size <= index < size:
                raise IndexError("sequence index out of range")
            return self._lazy.get(index % size)
        if self._lazy is not None and isinstance(index, slice):
            r = range(len(self._lazy))[index]
            return self._lazy.take(r.start, r.step, len(r))
        item = self._view()[index]
        return item.tolist() if isinstance(item, memoryview) else item

    def __iter__(self) -> Any:
        return iter(self._view())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return self.values == other.values and self.report == other.report
        if isinstance(other, list):
            return self.values == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __getattr__(self, name: str) -> Any:
        # Report keys as attributes: code, n, engine, max_value, value_counts, set, ...
        report = object.__getattribute__(self, "report")
        if name in report:
            return report[name]
        raise AttributeError(name)

    @property
    def _period(self) -> Optional[Dict[str, Any]]:
        return self.report.get("period")

    @property
    def period(self) -> Optional[int]:
        """Length of the period found, or None."""
        p = self._period
        return None if p is None else p["period"]

    @property
    def preperiod(self) -> Optional[int]:
        """First index of the periodic part, or None."""
        p = self._period
        return None if p is None else p["preperiod"]

    @property
    def certified(self) -> bool:
        """Whether the periodicity theorem proves the period for every n."""
        p = self._period
        return bool(p and p["certified"])

    def to_dict(self) -> Dict[str, Any]:
        """The report with ``values`` (the keys of the CLI's JSON with ``--print``)."""
        d = dict(self.report)
        d["values"] = self.values
        return d

    def __repr__(self) -> str:
        head = ", ".join(str(self[i]) for i in range(min(12, len(self))))
        more = ", ..." if len(self) > 12 else ""
        label = self.report.get("code", self.report.get("set", self.report.get("game", "")))
        period = self._period
        if period is None:
            tail = ""
        else:
            how = "certified" if period["certified"] else "observed"
            tail = f", preperiod={period['preperiod']}, period={period['period']} ({how})"
        return f"Sequence({label!r}, G(0..{len(self) - 1}) = [{head}{more}]{tail})"

    def plot(self, ax: Any = None, **scatter: Any) -> Any:
        """Draw G(n) against n (needs matplotlib); the periodic part, if any, is shaded.

        Returns the matplotlib Axes.
        """
        plt = _optional.need("matplotlib.pyplot", "plot()")

        if ax is None:
            _, ax = plt.subplots(figsize=(8, 3))
        ys = self.values
        scatter.setdefault("s", 4)
        ax.scatter(range(len(ys)), ys, **scatter)
        period = self._period
        if period is not None:
            ax.axvspan(period["preperiod"], len(ys) - 1, alpha=0.1)
        ax.set_xlabel("n")
        ax.set_ylabel("G(n)")
        label = self.report.get("code", self.report.get("set", self.report.get("game", "")))
        ax.set_title(f"G(n) of {label}")
        return ax
