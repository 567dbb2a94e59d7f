"""Every ```python block of docs/python.md that is followed by a ```text block is run; what it
prints must be that text (so the chapter shows real output)."""

from __future__ import annotations

import contextlib
import io
import re

from conftest import ROOT

BLOCK = re.compile(r"```python\n(.*?)```\n+```text\n(.*?)```", re.S)


def test_python_chapter_examples_print_what_they_show():
    text = (ROOT / "docs" / "python.md").read_text()
    blocks = BLOCK.findall(text)
    assert len(blocks) >= 5
    namespace: dict = {}
    for code, expected in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "docs/python.md", "exec"), namespace)
        assert out.getvalue() == expected, code


def test_help_shows_an_example():
    import grundy

    assert '>>> s = takebreak("0.07", until_period=True)' in grundy.takebreak.__doc__


def test_docstring_examples():
    import doctest

    import grundy
    from grundy import _graph, _search

    for module in (grundy, _graph, _search):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0, module.__name__
