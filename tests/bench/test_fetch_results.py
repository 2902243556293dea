"""bench/fetch_results.py: saved result files, kept in git history and out of the
working tree, written back where the bench scripts' commands read them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import fetch_results  # bench/ is not an installed package


def _repo(root: Path) -> str:
    """A repository whose one commit holds two result files, removed after it."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
        ).stdout.strip()

    git("init", "-q")
    folder = root / "bench" / "results"
    folder.mkdir(parents=True)
    (folder / "moons-a-0-9.json").write_text('{"first": 0}')
    (folder / "moons-b-10-19.json").write_text('{"first": 10}')
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "runs")
    commit = git("rev-parse", "HEAD")
    git("rm", "-q", "bench/results/moons-a-0-9.json", "bench/results/moons-b-10-19.json")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "out of the tree")
    return commit


def test_files_are_fetched_by_name_and_glob_from_the_commit_that_kept_them(
    tmp_path: Path,
) -> None:
    commit = _repo(tmp_path)
    sizes = {"moons-a-0-9.json": 12, "moons-b-10-19.json": 13}
    assert fetch_results.kept(commit, tmp_path) == sizes
    written = fetch_results.fetch(["moons-b-10-19.json", "moons-*.json"], commit, root=tmp_path)
    folder = tmp_path / "bench" / "results"
    assert written == [folder / "moons-b-10-19.json", folder / "moons-a-0-9.json"]
    assert (folder / "moons-a-0-9.json").read_text() == '{"first": 0}'
    other = fetch_results.fetch(["moons-a-*"], commit, tmp_path / "elsewhere", tmp_path)
    assert other == [tmp_path / "elsewhere" / "moons-a-0-9.json"]


def test_a_name_that_matches_nothing_or_a_missing_commit_is_refused(tmp_path: Path) -> None:
    commit = _repo(tmp_path)
    with pytest.raises(SystemExit, match="no result file"):
        fetch_results.fetch(["moons-c-*.json"], commit, root=tmp_path)
    with pytest.raises(SystemExit, match="not in this clone"):
        fetch_results.kept("0" * 40, tmp_path)
