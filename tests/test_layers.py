"""The layers of the code (README, "Layout"): the import contracts hold, and the plugin is registered."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    """calculators stands alone; build > cli | site > rules > languages; only build imports MkDocs."""
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_plugin_is_registered_by_its_entry_point():
    from kensei_ref.build.plugin import PLUGIN_NAME, KenseiRefPlugin

    (entry,) = [e for e in entry_points(group="mkdocs.plugins") if e.name == PLUGIN_NAME]
    assert entry.load() is KenseiRefPlugin
    assert f"- {PLUGIN_NAME}:" in (ROOT / "mkdocs.yml").read_text("utf-8")


STATED_TOP_LEVEL = ("mkdocs.yml", "docs", "locales", "kensei_ref", "calculators", "tests", "README.md")
"""The project's top level as its design states it."""


def test_the_top_level_is_the_stated_one():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    tops = {line.split("/")[0] for line in tracked.splitlines()}
    assert [name for name in STATED_TOP_LEVEL if name not in tops] == []
    assert not [line for line in tracked.splitlines() if line.startswith("kensei_ref/locales/")]


def test_every_path_of_the_readme_layout_exists():
    readme = (ROOT / "README.md").read_text("utf-8")
    layout = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    paths = [row.split("`")[1] for row in layout.splitlines() if row.startswith("| `")]
    assert "locales/" in paths
    assert [path for path in paths if not (ROOT / path).exists()] == []


def test_no_module_of_a_layer_imports_one_that_imports_it_back():
    """Within each layer, imports go one way (function-level imports too): no cycle, such as the calculator
    pages and the units pages once made (the unit pickers now stand between them)."""
    import ast

    for layer in ("site", "cli", "rules", "build"):
        graph: dict[str, set[str]] = {}
        for path in (ROOT / "kensei_ref" / layer).glob("*.py"):
            name = f"kensei_ref.{layer}.{path.stem}"
            targets = graph.setdefault(name, set())
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module:
                    modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
                elif isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                else:
                    continue
                targets.update(m for m in modules if m.startswith(f"kensei_ref.{layer}.") and m != name)

        def reaches(start: str, goal: str, seen: set[str], graph=graph) -> bool:
            return any(
                nxt == goal or (nxt not in seen and not seen.add(nxt) and reaches(nxt, goal, seen))
                for nxt in graph.get(start, ())
            )

        cycles = sorted(name for name in graph if reaches(name, name, set()))
        assert cycles == [], f"{layer}: {cycles}"
