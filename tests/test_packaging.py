"""The package as a user gets it: built into an sdist and a wheel (the wheel from the
sdist, as `python -m build` does), both carrying the license and the package data,
installed into a fresh virtual environment away from this source tree, and able to run
`--version` and the whole demo, whose ledger names a schema that is there beside it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import venv
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import jsonschema
import pytest

from claimledger.ledger.safeyaml import load_located
from claimledger.workspace.demo import prepare_demo_directory

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "claimledger"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SCHEMA_COMMENT = "# yaml-language-server: $schema="


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`python -m build`: the sdist, then the wheel built from it, from a copy of the tree
    (a build writes its egg-info there: two test workers building one tree would race).
    CI builds them from this tree before the tests, for twine to check, and names their
    folder in CLAIMLEDGER_BUILT_DIST: the packages tested are then the ones checked."""
    if built := os.environ.get("CLAIMLEDGER_BUILT_DIST"):
        return Path(built)
    out = tmp_path_factory.mktemp("dist")
    tree = tmp_path_factory.mktemp("tree") / "claimledger"
    left_out = shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", ".pages", "__pycache__", "out", ".*_cache"
    )
    shutil.copytree(ROOT, tree, ignore=left_out)
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(tree)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return out


def wheel_of(dist: Path) -> Path:
    (wheel,) = dist.glob("claimledger-*.whl")
    return wheel


def sdist_of(dist: Path) -> Path:
    (sdist,) = dist.glob("claimledger-*.tar.gz")
    return sdist


def package_data() -> set[str]:
    """What the package carries besides its modules, relative to src/: data/ and py.typed."""
    files = {
        p for p in (PACKAGE / "data").rglob("*") if p.is_file() and "__pycache__" not in p.parts
    }
    return {str(p.relative_to(ROOT / "src")) for p in {*files, PACKAGE / "py.typed"}}


def assert_names_a_schema_that_validates_it(ledger: Path) -> None:
    """The ledger's first line points a YAML language server at a file that is there, and
    that file is a JSON Schema the ledger (read as such a server reads YAML) satisfies."""
    text = ledger.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first.startswith(SCHEMA_COMMENT), first
    schema_path = ledger.parent / first.removeprefix(SCHEMA_COMMENT).strip()
    assert schema_path.is_file(), f"{ledger}'s first line points at {schema_path}: not there"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    located, problems = load_located(text)  # YAML 1.2's core schema: dates stay text
    assert located is not None and not problems, problems
    jsonschema.Draft202012Validator(schema).validate(located.data)


def test_the_demo_copy_names_a_schema_beside_it_that_validates_it(tmp_path: Path) -> None:
    assert_names_a_schema_that_validates_it(prepare_demo_directory(tmp_path / "demo"))


PIP = (sys.executable, "-m", "pip")


@pytest.mark.slow
def test_the_built_wheel_runs_the_demo_from_a_fresh_environment(dist: Path, tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    venv.create(fresh)  # no pip of its own: this one installs into it (`--python`)
    python = fresh / "bin" / "python"
    subprocess.run(
        [*PIP, "--python", str(python), "install", "--quiet", "--no-deps", str(wheel_of(dist))],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # The dependencies come from this environment; claimledger itself only from the wheel.
    env = {**os.environ, "PYTHONPATH": sysconfig.get_paths()["purelib"]}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(python), "-c", "import claimledger; print(claimledger.__file__)"],
        cwd=elsewhere,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert where.startswith(str(fresh)), where

    version = subprocess.run(
        [str(fresh / "bin" / "claimledger"), "--version"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"claimledger {PROJECT['version']}"

    demo = subprocess.run(
        [str(fresh / "bin" / "claimledger"), "demo", "run"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert demo.returncode == 0, demo.stderr
    report = (elsewhere / "run" / "out" / "report.md").read_text()
    assert "The input gate" in report
    assert (elsewhere / "run" / "out" / "report.html").exists()
    assert_names_a_schema_that_validates_it(elsewhere / "run" / "claims.yaml")


@pytest.mark.slow
def test_the_wheel_holds_the_license_the_package_data_and_the_metadata(dist: Path) -> None:
    with zipfile.ZipFile(wheel_of(dist)) as wheel:
        names = set(wheel.namelist())
        info = f"claimledger-{PROJECT['version']}.dist-info"
        license_text = wheel.read(f"{info}/licenses/LICENSE").decode("utf-8")
        metadata = HeaderParser().parsestr(wheel.read(f"{info}/METADATA").decode("utf-8"))
    assert license_text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License\n")
    assert "claimledger contributors" in license_text
    assert package_data() <= names, sorted(package_data() - names)
    assert metadata["License-Expression"] == "MIT" and metadata["License-File"] == "LICENSE"
    assert metadata["Author"] == "claimledger contributors"
    assert set(metadata.get_all("Classifier") or []) == set(PROJECT["classifiers"])
    urls = dict(url.split(", ", 1) for url in metadata.get_all("Project-URL") or [])
    assert urls == PROJECT["urls"]
    assert metadata["Description-Content-Type"] == "text/markdown"


@pytest.mark.slow
def test_the_sdist_holds_the_package_and_no_tests_it_cannot_run(dist: Path) -> None:
    with tarfile.open(sdist_of(dist)) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert not any(name.startswith("tests") for name in names), sorted(names)
    assert {"README.md", "LICENSE", "pyproject.toml", "src/claimledger/cli/app.py"} <= names
    data = {f"src/{name}" for name in package_data()}
    assert data <= names, sorted(data - names)
