"""Long runs through the CLI's run code (crate grundy-runs): checkpoints that survive a signal
and resume (in Python and in the CLI), records in the catalogue, censuses and the papers'
checks — each against the CLI's --json on the same inputs."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import threading

import grundy
import pytest
from conftest import BIN, ROOT, cli_error, run_cli

_spec = importlib.util.spec_from_file_location(
    "check_results", ROOT / "scripts" / "check-results.py"
)
assert _spec is not None and _spec.loader is not None
_check_results = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_check_results)

NO_STATE = ("--no-checkpoint", "--no-record")
# Timings and row ids differ between two runs of the same computation.
VOLATILE = ("seconds", "id", "recorded_at")


def python_words(message):
    """The CLI's message with its flags written as Python's keywords (issue 27: a Python
    message names the keyword as the caller wrote it, never a CLI flag)."""
    for flag, keyword in [
        ("--checkpoint", "checkpoint"),
        ("--jobs", "jobs"),
        ("--max-boxes", "max_boxes"),
        ("--players", "players"),
        ("--max-heap", "max_heap"),
        ("--heaps", "heaps"),
    ]:
        message = message.replace(flag, keyword)
    return message


def steady(record):
    return {k: v for k, v in record.items() if k not in VOLATILE}


def saved_count(path):
    """How many values a checkpoint holds, as its head says (read by scripts/check-results.py,
    the plain-Python reader of the format, rather than a second copy of it here)."""
    return _check_results.saved_count(path)


def test_sequence_goes_through_the_run_code_like_the_cli():
    seq = grundy.takebreak("0.16", 5000)
    cli = run_cli("takebreak", "0.16", "-n", "5000", "--print", *NO_STATE)
    assert seq.to_dict() == cli
    assert seq.report["engine"] == cli["engine"]


def test_results_are_the_clis_summaries_at_powers_of_two(tmp_path):
    grundy.takebreak("0.6", 3000, results=tmp_path / "py")
    subprocess.run(
        [BIN, "takebreak", "0.6", "-n", "3000", "--results", str(tmp_path / "cli"), *NO_STATE],
        check=True,
        capture_output=True,
    )
    for name in ("1024.txt", "2048.txt"):
        py = (tmp_path / "py" / "0.6" / name).read_text()
        assert py == (tmp_path / "cli" / "0.6" / name).read_text()
        assert py.startswith(f"# grundy: the values of 0.6 at heaps 1..={name[:-4]}\n")
    with pytest.raises(TypeError, match="results must be a path"):
        grundy.takebreak("0.6", 3000, results=3)


def test_summaries_recorded_in_a_catalogue_are_listed_as_the_cli_lists_them(tmp_path):
    db = tmp_path / "cat.sqlite3"
    grundy.takebreak("0.6", 3000, results=tmp_path / "py", record=db)
    listed = grundy.power_summaries("0.6", db=db)
    cli = run_cli("catalogue", "0.6", "--powers", "--db", str(db))
    assert listed == cli
    assert [s["n"] for s in listed["summaries"]] == [1024, 2048]
    s = listed["summaries"][1]
    text = (tmp_path / "py" / "0.6" / "2048.txt").read_text()
    assert f"little-endian {s['sha256']}" in text
    assert sum(c for _, c in s["histogram"]) == 2048
    assert grundy.power_summaries("0.7", db=db)["count"] == 0
    with pytest.raises(ValueError, match="no catalogue at"):
        grundy.power_summaries(db=tmp_path / "none.sqlite3")
    with pytest.raises(TypeError, match="pattern must be a str"):
        grundy.power_summaries(3)  # type: ignore[arg-type]


def test_a_signal_saves_the_checkpoint_and_both_front_ends_resume_it(tmp_path, capfd):
    path = tmp_path / "0106.ckpt"
    # 0.106 has no known period: a long run. A real SIGINT to this process, as Ctrl-C or a
    # kernel interrupt sends, stops it.
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.takebreak("0.106", 10**8, checkpoint=path, checkpoint_every=3600)
    finally:
        timer.cancel()
    err = capfd.readouterr().err
    count = saved_count(path)
    assert count > 1000, count
    assert f"grundy: interrupted: G(0..{count - 1}) saved to '{path}'" in err
    # Python resumes: nothing left to compute, and the values are those of a fresh run
    n = count - 1
    resumed = grundy.takebreak("0.106", n, checkpoint=path)
    err = capfd.readouterr().err
    assert f"resuming from checkpoint '{path}' (G(0..{n}) already computed)" in err
    fresh = grundy.takebreak("0.106", n)
    assert resumed.values == fresh.values
    # the CLI resumes the checkpoint Python saved, with the same values
    done = subprocess.run(
        [
            BIN,
            "takebreak",
            "0.106",
            "-n",
            str(n),
            "--print",
            "--checkpoint",
            str(path),
            "--no-record",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "resuming from checkpoint" in done.stderr
    import json

    assert json.loads(done.stdout)["values"] == fresh.values
    # a chosen checkpoint is kept when the run completes
    assert path.exists()


def test_a_checkpoint_of_another_code_is_refused_like_the_cli(tmp_path):
    path = tmp_path / "c.ckpt"
    grundy.takebreak("0.07", 3000, checkpoint=path)
    with pytest.raises(ValueError) as info:
        grundy.takebreak("0.16", 3000, checkpoint=path)
    expected = cli_error(
        "takebreak", "0.16", "-n", "3000", "--checkpoint", str(path), "--no-record"
    )
    assert str(info.value) == python_words(expected)


def test_run_messages_name_python_keywords_not_cli_flags(tmp_path, monkeypatch, capfd):
    # checkpoint=True keeps the checkpoint in the user's data directory, which the run says
    # when it creates it, with how to turn it off: the CLI's sentence names --no-checkpoint
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    s = grundy.takebreak("0.6", 200_000, checkpoint=True, checkpoint_every=0.001)
    assert len(s.values) == 200_001
    err = capfd.readouterr().err
    assert "checkpoints of long runs are kept in" in err, err
    assert "(checkpoint=None turns them off)" in err, err
    assert "--" not in err, err


def test_records_go_to_the_catalogue_the_cli_lists(tmp_path):
    db = tmp_path / "runs.sqlite3"
    s = grundy.takebreak("0.07", until_period=True, record=db)
    listing = grundy.catalogue(db=db)
    assert listing["count"] == 1
    run = listing["runs"][0]
    assert (run["code"], run["n"], run["preperiod"], run["period"], run["certified"]) == (
        "0.07",
        s.report["n"],
        53,
        34,
        True,
    )
    assert listing == run_cli("catalogue", "--db", str(db))
    # the filters are the CLI's
    assert grundy.catalogue("0.??", db=db, certified=False)["count"] == 0
    assert grundy.catalogue("dawsons-kayles", db=db, latest=True)["count"] == 1


def test_census_matches_the_cli_and_records_every_code(tmp_path):
    db = tmp_path / "census.sqlite3"
    seen = []
    r = grundy.census("0.?7", 2000, record=db, jobs=2, progress=lambda d, t: seen.append((d, t)))
    cli = run_cli("census", "0.?7", "-n", "2000", "--no-record")
    assert [steady(x) for x in r["results"]] == [steady(x) for x in cli["results"]]
    # (the CLI's run recorded nothing)
    assert r["recorded"] == 8 and cli["recorded"] == 0
    assert {k: v for k, v in r.items() if k not in ("seconds", "results", "recorded")} == {
        k: v for k, v in cli.items() if k not in ("seconds", "results", "recorded")
    }
    assert seen[0] == (0, 8) and seen[-1] == (8, 8)
    listed = grundy.catalogue("0.?7", db=db)
    # recorded as they finish (in any order), each with the row id the result carries
    assert {x["code"]: x["id"] for x in listed["runs"]} == {
        x["code"]: x["id"] for x in r["results"]
    }
    assert listed["count"] == 8


def test_an_exception_in_the_progress_callback_stops_a_census_and_reaches_the_caller():
    def boom(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        grundy.census("0.??", 10_000, progress=boom)


@pytest.mark.parametrize(
    "check, kwargs, flags",
    [
        ("nim", dict(heaps=3, max_heap=10), ["--heaps", "3", "--max-heap", "10"]),
        ("cdnim", dict(heaps=2, max_heap=30), ["--heaps", "2", "--max-heap", "30"]),
        ("welter", dict(coins=3, max_square=10), ["--coins", "3", "--max-square", "10"]),
        ("quotient-theorem", dict(max_boxes=10), ["--max-boxes", "10"]),
        (
            "multiplayer",
            dict(players=3, heaps=3, max_heap=5),
            ["--players", "3", "--heaps", "3", "--max-heap", "5"],
        ),
        ("nim", {}, []),
    ],
)
def test_verify_matches_the_cli(check, kwargs, flags):
    assert grundy.verify(check, **kwargs) == run_cli("verify", check, *flags)


@pytest.mark.parametrize(
    "call, cli",
    [
        (lambda: grundy.census("0.??????"), ["census", "0.??????"]),
        (lambda: grundy.census("0.?7", 10**8), ["census", "0.?7", "-n", "100000000"]),
        (lambda: grundy.census("0.?7", jobs=1000), ["census", "0.?7", "--jobs", "1000"]),
        (lambda: grundy.catalogue(engine="fast", db="x"), ["catalogue", "--engine", "fast"]),
        (
            lambda: grundy.verify("nim", heaps=9, max_heap=100),
            ["verify", "nim", "--heaps", "9", "--max-heap", "100"],
        ),
        (
            lambda: grundy.verify("quotient-theorem", max_boxes=61),
            ["verify", "quotient-theorem", "--max-boxes", "61"],
        ),
        (
            lambda: grundy.verify("multiplayer", players=17),
            ["verify", "multiplayer", "--players", "17"],
        ),
    ],
)
def test_bad_input_raises_the_clis_message(call, cli):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == python_words(cli_error(*cli))


def test_bad_input_of_python_own_arguments(tmp_path):
    with pytest.raises(ValueError, match="unknown check 'chess'"):
        grundy.verify("chess")
    with pytest.raises(ValueError, match="the nim check takes no coins"):
        grundy.verify("nim", coins=3)
    with pytest.raises(ValueError, match="checkpoint_every 0 is out of range"):
        grundy.takebreak("0.07", checkpoint=tmp_path / "c", checkpoint_every=0)
    with pytest.raises(TypeError):
        grundy.takebreak("0.07", checkpoint=3)
    with pytest.raises(TypeError):
        grundy.census("0.?7", progress="yes")
    with pytest.raises(ValueError, match="no catalogue at"):
        grundy.catalogue(db=tmp_path / "missing.sqlite3")


def test_docstring_examples_of_long_runs():
    import doctest

    from grundy import _runs

    failures, tried = doctest.testmod(_runs)
    assert tried > 0 and failures == 0


def test_codes_only_the_general_engine_runs_go_there_like_the_cli():
    seq = grundy.takebreak("0.[3]", 100)
    assert seq.to_dict() == run_cli("takebreak", "0.[3]", "-n", "100", "--print")
    assert seq.report["engine"] == "general"
    pos = grundy.takebreak_position("0.[3]", [5, 7])
    assert pos == run_cli("takebreak", "0.[3]", "--heaps", "5,7")
    with pytest.raises(ValueError) as info:
        grundy.takebreak("0.9x!")
    assert str(info.value) == cli_error("takebreak", "0.9x!")
    with pytest.raises(
        ValueError, match="run by the general engine, which does not support " "until_period"
    ):
        grundy.takebreak("0.[3]", until_period=True)


def test_progress_reaches_a_callback_and_no_bar_goes_to_a_log(capfd, monkeypatch):
    seen = []
    grundy.takebreak("0.106", 3 * 10**6, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (3 * 10**6 + 1, 3 * 10**6 + 1)
    assert all(t == 3 * 10**6 + 1 and 0 <= d <= t for d, t in seen)
    # stderr is not a terminal here: the default shows no bar, even past the delay
    monkeypatch.setattr(grundy._runs, "BAR_AFTER_SECONDS", 0.0)
    grundy.takebreak("0.106", 3 * 10**6)
    assert capfd.readouterr().err == ""
    # asked for, the bar is drawn (tqdm is installed in the test environment)
    grundy.takebreak("0.106", 3 * 10**6, progress=True)
    assert "G(n) of 0.106" in capfd.readouterr().err
