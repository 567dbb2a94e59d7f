"""The notebooks of docs/notebooks/ run from top to bottom in a fresh kernel, as a reader runs
them, so they cannot drift from the package. They are committed without outputs (a notebook
that carries stale outputs would show what the package no longer prints)."""

from __future__ import annotations

import pathlib

import pytest

from conftest import ROOT

NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))


def test_the_notebooks_are_there():
    names = {p.name for p in NOTEBOOKS}
    assert {"tour.ipynb", "research.ipynb"} <= names, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_and_shows_its_pictures(path: pathlib.Path, tmp_path: pathlib.Path):
    # imported here: the kernel machinery stays out of the other tests' process state
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert (
                cell.outputs == [] and cell.execution_count is None
            ), f"{path.name}: commit notebooks without outputs"
    # a fresh kernel of this interpreter, in a scratch directory; an error in any cell fails
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    kinds = [
        set(out.get("data", {}))
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
    ]
    pictures = sum(1 for k in kinds if {"image/svg+xml", "image/png"} & k)
    if path.name == "tour.ipynb":
        # two plots, a Young diagram and two game graphs, inline
        assert pictures >= 5, kinds
        assert sum(1 for k in kinds if "image/svg+xml" in k) >= 3, kinds
    if path.name == "research.ipynb":
        # the catalogue as a table, and two plots
        assert any("text/html" in k for k in kinds), kinds
        assert pictures >= 2, kinds
