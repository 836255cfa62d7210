"""The rules engines stay pure: stdlib only, no Django, no I/O, no clock, no global random."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

ENGINES_DIR = pathlib.Path(__file__).resolve().parents[2] / "games" / "engines"
ALLOWED_ROOTS = {
    "__future__",
    "argparse",
    "collections",
    "copy",
    "dataclasses",
    "enum",
    "functools",
    "games",
    "itertools",
    "json",
    "math",
    "random",
    "statistics",
    "sys",
    "time",
    "traceback",
    "typing",
}
# Only the command-line simulator may read the clock and print: it measures games per second.
TOOLS = {"simulate.py"}
FORBIDDEN_CALLS = {
    ("random", name)
    for name in (
        "random",
        "randint",
        "randrange",
        "choice",
        "choices",
        "shuffle",
        "sample",
        "seed",
        "uniform",
    )
}


def engine_modules():
    return sorted(ENGINES_DIR.rglob("*.py"))


def test_engine_modules_import_only_the_standard_library_and_each_other():
    for path in engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                root = name.split(".")[0]
                assert root in ALLOWED_ROOTS, f"{path.name} imports {name}"
                if root == "games":
                    assert name.startswith("games.engines"), f"{path.name} imports site code {name}"
                if root in {"time", "sys", "argparse", "traceback"}:
                    assert path.name in TOOLS, (
                        f"{path.name} imports {name}: engines have no clock or I/O"
                    )


def test_engines_never_use_the_global_random_generator_or_open_files():
    for path in engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func.value
                if isinstance(target, ast.Name):
                    assert (target.id, node.func.attr) not in FORBIDDEN_CALLS, (
                        f"{path.name}:{node.lineno} uses the global random.{node.func.attr}"
                    )
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "input", "eval", "exec"}, (
                    f"{path.name}:{node.lineno}"
                )
                if path.name not in TOOLS:
                    assert node.func.id != "print", f"{path.name}:{node.lineno} prints"


def test_the_engines_import_without_django_settings():
    code = "import sys, games.engines.registry as r; assert 'django' not in sys.modules; print(len(r.ENGINES))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        cwd=ENGINES_DIR.parents[1],
    )
    assert done.returncode == 0, done.stderr
