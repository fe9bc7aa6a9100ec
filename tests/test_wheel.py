"""The package as a user installs it: the wheel carries the rule data, the catalogs and the site's files,
and ``kensei-ref`` works from a fresh virtual environment outside the checkout."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.build


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built by the project's build backend from a copy of the committed files and the
    compiled catalogs (``make`` compiles them), so that nothing else of the checkout can slip in."""
    source = tmp_path_factory.mktemp("source")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    catalogs = [p.relative_to(ROOT).as_posix() for p in (ROOT / "locales").glob("*/LC_MESSAGES/*.mo")]
    assert catalogs, "compile the catalogs first (make does)"
    for name in [*filter(None, tracked.decode().split("\0")), *catalogs]:
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_wheel({str(out)!r})"],
        cwd=source,
        check=True,
        capture_output=True,
        text=True,
    )
    (built,) = out.glob("kensei_ref-*.whl")
    return built


def test_the_wheel_ships_data_catalogs_and_site_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "kensei_ref/rules/data/sources.yaml",
        "kensei_ref/rules/data/aliases.yaml",
        "kensei_ref/rules/data/kensei/08-orders.yaml",
        "kensei_ref/locales/fr/LC_MESSAGES/messages.mo",
        "kensei_ref/locales/ru/LC_MESSAGES/messages.mo",
        "kensei_ref/site/templates/chapter.md.j2",
        "kensei_ref/site/overrides/main.html",
        "kensei_ref/site/assets/js/calculator.js",
        "kensei_ref/site/engine/calc-worker.js",
        "kensei_ref/site/offline/sw.js",
        "kensei_ref/build/search_ranking.js",
        "kensei_ref/build/engine_snapshot.mjs",
        "calculators/rule_values.json",
    ):
        assert required in names, f"{required} is not in {wheel.name}"
    assert not any(name.startswith("locales/") for name in names), "the catalogs belong inside the package"
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "kensei-ref = kensei_ref.cli.main:run" in text
    assert "kensei-ref = kensei_ref.build.plugin:KenseiRefPlugin" in text


def test_the_wheel_ships_every_module(wheel):
    """pyproject.toml names each package (the catalogs' folder is mapped into the package): a new one must be named."""
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = sorted(
        path.relative_to(ROOT).as_posix()
        for top in ("kensei_ref", "calculators")
        for path in (ROOT / top).rglob("*.py")
    )
    assert modules and [module for module in modules if module not in names] == []


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A new virtual environment with only the wheel installed; its dependencies are read from this
    environment's site-packages through a path entry (a ``.pth`` line), whose own ``.pth`` files
    (such as the editable install of the checkout) are not run."""
    home = tmp_path_factory.mktemp("fresh") / "venv"
    venv.EnvBuilder(with_pip=False).create(home)
    python = home / "bin" / "python"
    target = _python_prints(home, "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=home).strip()
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    (Path(target) / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    script = home / "bin" / "kensei-ref"
    script.write_text(f"#!{python}\nimport sys\nfrom kensei_ref.cli.main import run\nsys.exit(run())\n")
    script.chmod(0o755)
    return home


def _python_prints(installed: Path, code: str, *, cwd: Path) -> str:
    """What the environment's own Python prints when it runs ``code`` in ``cwd``."""
    return subprocess.run(
        [str(installed / "bin" / "python"), "-c", code], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


def _run(installed: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(installed / "bin" / "kensei-ref"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )


def test_the_installed_package_is_not_the_checkout(installed, tmp_path):
    where = _python_prints(
        installed,
        "import kensei_ref, calculators; print(kensei_ref.__file__); print(calculators.__file__)",
        cwd=tmp_path,
    )
    for line in where.splitlines():
        assert str(installed) in line and str(ROOT) not in line, line


def test_rule_lookup_in_french_from_the_installed_package(installed, tmp_path):
    result = _run(installed, "rule", "8.3.2", "--lang", "fr", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("8.3.2 Regrouper les unités en fuite")


def test_calculator_from_the_installed_package(installed, tmp_path):
    result = _run(
        installed,
        "calc",
        "shooting",
        "--wounds",
        "2,2,2,1",
        "--attack",
        "6",
        "--defense",
        "5",
        "--armor",
        "3",
        "--json",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["calculator"] == "shooting" and answer["dice"] == 7
    assert abs(sum(answer["pmf"]) - 1) < 1e-12
