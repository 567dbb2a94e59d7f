"""Optional packages (numpy, matplotlib, networkx, pandas): imported when a method needs one,
with a message that says how to install it when it is missing."""

from __future__ import annotations

import importlib
from typing import Any

# The extra of pyproject.toml that installs each optional module.
_EXTRAS = {"numpy": "numpy", "matplotlib": "plot", "networkx": "networkx", "pandas": "pandas"}


def need(module: str, what: str) -> Any:
    """``import module`` (e.g. ``"matplotlib.pyplot"``) for ``what`` (e.g. ``"to_numpy()"``), or
    an ImportError that names the package and the pip command that installs it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        top = module.split(".")[0]
        if e.name is not None and e.name.split(".")[0] != top:
            raise  # the module itself is there but one of its own imports is broken
        extra = _EXTRAS.get(top, top)
        raise ModuleNotFoundError(
            f"{what} needs {top}, which is not installed: pip install {top} (or install "
            f'grundy with the extra: pip install "./crates/grundy-py[{extra}]")',
            name=top,
        ) from None
