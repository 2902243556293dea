"""Saved bench results fetched from git: the raw files are kept out of the working tree.

    python3 bench/fetch_results.py NAME|PATTERN ... [--commit C] [--to DIR]
    python3 bench/fetch_results.py --list [PATTERN ...] [--commit C]

Every ``--out`` file of ``strength.py``, ``moons.py``, ``moon_model.py`` and
``moon_floor.py`` made up to issue 55 is in git at :data:`KEPT_AT` (the last commit
whose tree held them), under ``bench/results/``; a later file at the commit its row
names (``--commit``).  NAME is a file name there, PATTERN a glob of names (quote it:
``'moons-stop1-*.json'``).  The files go to ``--to`` (default ``bench/results/``, where
git ignores ``*.json``), so the commands in ``bench/strength_results.md`` and
``bench/results/README.md`` run as written once their files are fetched.  The same by
hand: ``git show C:bench/results/NAME > bench/results/NAME``.
"""

from __future__ import annotations

import argparse
import fnmatch
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The commit whose tree held every result file listed in bench/results/README.md.
KEPT_AT = "ac3ba010555e05387be5aa30a29fc66d212ffa7c"
FOLDER = "bench/results"


def _git(root: Path, *args: str) -> bytes:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True)
    if done.returncode:
        raise SystemExit(f"git {' '.join(args)}: {done.stderr.decode().strip()}")
    return done.stdout


def kept(commit: str, root: Path = ROOT) -> dict[str, int]:
    """The result files at ``commit``: name → size in bytes."""
    if subprocess.run(
        ["git", "-C", str(root), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True
    ).returncode:
        raise SystemExit(
            f"commit {commit} is not in this clone (a shallow clone? git fetch --unshallow)"
        )
    out: dict[str, int] = {}
    for line in _git(root, "ls-tree", "-l", commit, f"{FOLDER}/").decode().splitlines():
        meta, path = line.split("\t", 1)
        size = meta.split()[3]
        out[path.rsplit("/", 1)[1]] = int(size) if size.isdigit() else 0
    return out


def matching(names: dict[str, int], patterns: list[str]) -> list[str]:
    """The names each pattern matches, in order; SystemExit for a pattern that
    matches none (a misspelt name fetches nothing silently otherwise)."""
    out: list[str] = []
    for pattern in patterns:
        found = sorted(n for n in names if fnmatch.fnmatchcase(n, pattern))
        if not found:
            raise SystemExit(f"no result file {pattern!r} at this commit")
        out.extend(n for n in found if n not in out)
    return out


def fetch(patterns: list[str], commit: str = KEPT_AT, to: Path | None = None,
          root: Path = ROOT) -> list[Path]:  # fmt: skip
    """Write the files ``patterns`` match at ``commit`` into ``to``; their paths."""
    names = kept(commit, root)
    folder = root / FOLDER if to is None else to
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in matching(names, patterns):
        path = folder / name
        path.write_bytes(_git(root, "cat-file", "blob", f"{commit}:{FOLDER}/{name}"))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("patterns", nargs="*", help="file names or quoted globs")
    p.add_argument("--commit", default=KEPT_AT, help="the commit that holds them")
    p.add_argument("--to", type=Path, default=None, help="the folder (default bench/results/)")
    p.add_argument("--list", action="store_true", help="list the files (and sizes) only")
    args = p.parse_args(argv)
    if args.list:
        names = kept(args.commit)
        for name in matching(names, args.patterns or ["*"]):
            print(f"{names[name]:>10}  {name}")
        return 0
    if not args.patterns:
        p.error("name the files (or --list)")
    for path in fetch(args.patterns, args.commit, args.to):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
