"""Censuses on any executor: a ``concurrent.futures.Executor`` (threads, processes, MPI, ...)
or a Dask ``distributed.Client``.

The policy is the library's (``_grundy.CensusSession``: skip what the catalogue already has,
claim each code with a per-code lock, record each result as it comes back — this process is
the one writer); this module only submits tasks and collects their results. A task is
:func:`compute_code`, a top-level function (so it pickles by name) that runs the library's
resumable run of one code and returns a plain dict: nothing a worker sends back needs grundy
to unpickle."""

from __future__ import annotations

import time

from . import _grundy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional

# How often codes another census holds are tried again (seconds).
RETRY_BUSY = 0.5


def compute_code(task: Dict[str, Any]) -> Dict[str, Any]:
    """Compute one code of a census (the dict ``CensusSession.claim`` gives) and return
    ``{"record": {...}, "resumed_from": k}``. It records nothing; a code whose checkpoint is in
    a directory the workers share resumes from it (e.g. after its worker died)."""
    return _grundy.census_code(
        task["code"],
        task["n"],
        task["until_period"],
        task["engine"],
        task["checkpoint"],
        task["checkpoint_every"],
    )


def _is_dask_client(executor: object) -> bool:
    module = type(executor).__module__ or ""
    return module.split(".")[0] == "distributed" and hasattr(executor, "submit")


def _as_completed(futures: List[Any], dask: bool) -> Any:
    if dask:
        from distributed import as_completed as dask_as_completed

        return dask_as_completed(futures)
    from concurrent.futures import as_completed as futures_as_completed

    return futures_as_completed(futures)


def run(
    session: Any,
    executor: Any,
    progress: Optional[Callable[[int, int, int, int], Any]],
) -> Dict[str, Any]:
    """Run every pending code of ``session`` on ``executor`` and return the report."""
    import concurrent.futures

    dask = _is_dask_client(executor)
    if not dask and not isinstance(executor, concurrent.futures.Executor):
        raise TypeError(
            "executor must be None, a concurrent.futures.Executor or a distributed.Client, "
            f"not {type(executor).__name__}"
        )
    todo: List[int] = list(session.pending())
    busy: List[int] = []
    futures: Dict[Any, int] = {}

    def tell_progress() -> None:
        if progress is not None:
            p = session.progress(len(futures))
            progress(p["done"], p["total"], p["running"], p["left"])

    # session.pending() lists the codes costliest first (the library's estimate): submitted in
    # that order, and on Dask with priorities in that order too (a scheduler may otherwise
    # reorder tasks submitted together), so that no worker is left with the longest code at
    # the end while the others are idle
    rank = {i: len(todo) - k for k, i in enumerate(todo)}

    def submit(task: Dict[str, Any], i: int) -> Any:
        if dask:
            # pure=False: a code asked again (a later census) is computed again, not looked up
            return executor.submit(
                compute_code,
                task,
                pure=False,
                key=f"grundy-census-{task['code']}-{time.time_ns()}",
                priority=rank.get(i, 0),
            )
        return executor.submit(compute_code, task)

    try:
        tell_progress()
        last_retry = time.monotonic()
        while todo or busy or futures:
            if time.monotonic() - last_retry >= RETRY_BUSY or not futures:
                todo.extend(busy)
                busy.clear()
                last_retry = time.monotonic()
            for i in todo:
                state, task = session.claim(i)
                if state == "mine":
                    futures[submit(task, i)] = i
                elif state == "busy":
                    busy.append(i)
            todo.clear()
            tell_progress()
            if not futures:
                if busy:
                    time.sleep(RETRY_BUSY)
                continue
            for future in _as_completed(list(futures), dask):
                i = futures.pop(future)
                session.complete(i, future.result())
                tell_progress()
                if busy and time.monotonic() - last_retry >= RETRY_BUSY:
                    break  # try the codes another census held
    except BaseException:
        # Ctrl-C, or a task that raised: finished codes are recorded already; the others are
        # released (and cancelled where the executor can)
        for future, i in futures.items():
            future.cancel()
            session.abandon(i)
        raise
    return session.finish()
