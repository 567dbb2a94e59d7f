"""Grundy sequences G(0..n) as notebook-friendly objects (list or numpy array, ``.plot()``)."""

from __future__ import annotations

import array
# typing is only read by type checkers: not importing it halves `import grundy`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional


class Sequence:
    """The Grundy values G(0), ..., G(n) of one heap, with the CLI's report around them.

    ``values`` is a list of ints; ``to_numpy()`` gives a ``uint16`` (or ``uint64``) numpy array
    when numpy is installed; ``plot()`` draws G(n) against n with matplotlib when installed.
    ``period``, ``preperiod`` and ``certified`` read the period found (``None`` when none);
    ``report`` is the dict of ``grundy ... --json`` (without the values), ``to_dict()`` the same
    with ``values``.
    """

    __slots__ = ("report", "_raw", "_typecode", "_list")

    def __init__(self, report: Dict[str, Any], raw: bytes, typecode: str = "H") -> None:
        self.report = report
        self._raw = raw
        self._typecode = typecode
        self._list: Optional[List[int]] = None

    @classmethod
    def _from_list(cls, report: Dict[str, Any], values: List[int]) -> "Sequence":
        seq = cls(report, b"", "Q")
        seq._list = values
        return seq

    @property
    def values(self) -> List[int]:
        """G(0..n) as a list of ints."""
        if self._list is None:
            a = array.array(self._typecode)
            a.frombytes(self._raw)
            self._list = a.tolist()
        return self._list

    def to_numpy(self) -> Any:
        """G(0..n) as a numpy array (needs numpy)."""
        import numpy

        if self._list is not None and not self._raw:
            return numpy.asarray(self._list, dtype=numpy.uint64)
        dtype = numpy.uint16 if self._typecode == "H" else numpy.uint64
        return numpy.frombuffer(self._raw, dtype=dtype)

    def __len__(self) -> int:
        return len(self.values) if self._list is not None else len(self._raw) // 2

    def __getitem__(self, index: Any) -> Any:
        return self.values[index]

    def __iter__(self) -> Any:
        return iter(self.values)

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
        head = ", ".join(str(v) for v in self.values[:12])
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
        import matplotlib.pyplot as plt

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
