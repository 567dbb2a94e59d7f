"""What a newcomer meets in the first hour (issue 28), from Python: a period search that stops
at its limit says so and gives the call that goes further; the codes the help shows run;
optional packages that are missing are named with the pip command."""

from __future__ import annotations

import re
import sys

import pytest

import grundy


def test_a_search_stopped_at_its_limit_says_so(capfd):
    s = grundy.takebreak("0.1777", 20000, until_period=True)
    err = capfd.readouterr().err
    assert "note: no period certified up to n = 20000: the limit given (n=20000)" in err, err
    limit = s.report["until_period_limit"]
    assert limit["default"] is False and limit["certifiable"] is True
    assert limit["next_command"].startswith('grundy.takebreak("0.1777", n=')
    assert limit["next_n"] > 20000
    # a certified period has nothing to say
    s = grundy.takebreak("kayles", until_period=True)
    assert "until_period_limit" not in s.report
    assert capfd.readouterr().err == ""


def test_the_codes_of_the_help_text_run():
    doc = grundy.takebreak.__doc__
    codes = re.findall(r'``"([^"`]+)"``', doc.split("or a name")[0])
    assert "0.&63;7" in codes, codes
    for code in codes:
        assert len(grundy.takebreak(code, 50)) == 51


@pytest.mark.parametrize(
    "module, call",
    [
        ("numpy", lambda: grundy.takebreak("0.07", 10).to_numpy()),
        ("matplotlib", lambda: grundy.takebreak("0.07", 10).plot()),
        ("networkx", lambda: grundy.to_networkx({"nodes": [{"id": "a"}]})),
    ],
)
def test_a_missing_optional_package_is_named(monkeypatch, module, call):
    for name in list(sys.modules):
        if name == module or name.startswith(module + "."):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ModuleNotFoundError) as e:
        call()
    message = str(e.value)
    assert f"pip install {module}" in message, message
    assert "./crates/grundy-py[" in message, message
