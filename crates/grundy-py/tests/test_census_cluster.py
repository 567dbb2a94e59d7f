"""Censuses on executors and on a real Dask cluster (a distributed.LocalCluster with two worker
processes): the same results as a sequential census, code by code; a worker killed in the middle
of a long code is replaced and the result is the same; an interrupted census, restarted,
recomputes nothing it had finished. Small n, so that each test takes seconds."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import sqlite3
import threading
import time

import distributed  # a test dependency (scripts/test-python.sh installs it): never skipped
import pytest

import grundy

# what a code's result must not depend on (where and when it ran, which engine auto chose)
SAME = ("code", "n", "preperiod", "period", "certified", "certified_at", "max_value")


def facts(report):
    return [tuple(r[k] for k in SAME) for r in report["results"]]


@pytest.fixture(autouse=True)
def own_locks(tmp_path, monkeypatch):
    # the per-code locks of this test's censuses, apart from any other census on the machine
    monkeypatch.setenv("GRUNDY_LOCK_DIR", str(tmp_path / "locks"))


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def rows(db):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT code FROM runs ORDER BY id").fetchall()


def test_a_census_on_a_dask_cluster_equals_the_sequential_one(client, tmp_path):
    sequential = grundy.census("0.??", 3000, jobs=1, checkpoint_dir=False)
    db = tmp_path / "c.sqlite3"
    seen = []
    on_dask = grundy.census(
        "0.??",
        3000,
        executor=client,
        catalogue=db,
        checkpoint_dir=tmp_path,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert facts(on_dask) == facts(sequential)
    assert (on_dask["codes"], on_dask["computed"], on_dask["recorded"]) == (64, 64, 64)
    assert on_dask["certified"] == sequential["certified"]
    assert seen[-1] == (64, 64)
    # one writer: every code recorded once, by this process
    assert sorted(c for (c,) in rows(db)) == sorted(r["code"] for r in on_dask["results"])
    # and any concurrent.futures executor: threads, processes
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        assert facts(grundy.census("0.??", 3000, executor=pool, checkpoint_dir=False)) == facts(
            sequential
        )
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        assert facts(grundy.census(["0.?7", "4.7"], 3000, executor=pool)) == facts(
            grundy.census(["0.?7", "4.7"], 3000, jobs=2)
        )


def test_the_task_is_a_picklable_function_returning_plain_data():
    import pickle

    from grundy import _census

    task = {
        "code": "0.07",
        "n": 2000,
        "until_period": True,
        "engine": "auto",
        "checkpoint": "off",
        "checkpoint_every": 60.0,
    }
    fn = pickle.loads(pickle.dumps(_census.compute_code))
    result = fn(task)
    assert result["resumed_from"] == 0
    assert (result["record"]["code"], result["record"]["period"]) == ("0.07", 34)
    assert pickle.loads(pickle.dumps(result)) == result


def test_a_worker_killed_in_the_middle_of_a_long_code_is_replaced_and_the_result_is_the_same(
    client, tmp_path
):
    # 0.04 has no sparse space: its time grows like n^2, one to two seconds at this n (at
    # 60,000 it took 0.6 s, and since the rare/common engine takes chunks on one thread its last
    # chunk there was half the run: no checkpoint was due before the code ended)
    n = 150_000
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    out = {}

    def census():
        out["report"] = grundy.census(
            "0.04",
            n,
            executor=client,
            checkpoint_dir=ckpt,
            checkpoint_every=0.2,
            catalogue=tmp_path / "c.sqlite3",
        )

    thread = threading.Thread(target=census)
    thread.start()
    saved = ckpt / "0.04.auto.ckpt"
    deadline = time.monotonic() + 60
    while not saved.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert saved.exists(), "the code never saved a checkpoint"
    # the worker computing it, killed without warning
    busy = [w for w, keys in client.processing().items() if keys]
    assert len(busy) == 1
    pid = client.run(os.getpid, workers=busy)[busy[0]]
    os.kill(pid, signal.SIGKILL)
    thread.join(timeout=300)
    assert not thread.is_alive()
    report = out["report"]
    # retried by the cluster on a fresh worker, which went on from the checkpoint
    assert report["resumed"] == 1
    alone = grundy.census("0.04", n, jobs=1, checkpoint_dir=False)
    assert facts(report) == facts(alone)
    assert not saved.exists(), "a completed code leaves no checkpoint"


def test_an_interrupted_census_restarted_recomputes_nothing_it_had_finished(client, tmp_path):
    db = tmp_path / "c.sqlite3"

    def stop_after_20(done, total):
        if done >= 20:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        grundy.census("0.??", 4000, executor=client, catalogue=db, progress=stop_after_20)
    finished = len(rows(db))
    assert 20 <= finished < 64
    again = grundy.census("0.??", 4000, executor=client, catalogue=db)
    assert (again["skipped"], again["computed"]) == (finished, 64 - finished)
    # every code recorded exactly once
    assert len(rows(db)) == 64 == len({c for (c,) in rows(db)})
    assert facts(again) == facts(grundy.census("0.??", 4000, checkpoint_dir=False))
    # a third time computes nothing
    third = grundy.census("0.??", 4000, executor=client, catalogue=db)
    assert (third["skipped"], third["computed"]) == (64, 0)


def test_bad_executors_and_arguments_are_refused():
    with pytest.raises(TypeError, match="executor must be"):
        grundy.census("0.?7", 100, executor=object())
    with pytest.raises(ValueError, match="jobs= is for executor=None"):
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            grundy.census("0.?7", 100, executor=pool, jobs=2)
    with pytest.raises(ValueError, match="too many codes"):
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            grundy.census("0.??????", executor=pool)
    with pytest.raises(TypeError):
        grundy.census(7)
