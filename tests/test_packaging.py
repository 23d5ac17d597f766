"""The package as a user gets it: built into an sdist and a wheel, installed into a fresh
virtual environment away from this source tree, and able to run the whole demo."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_built_wheel_runs_the_demo_from_a_fresh_environment(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    wheels = list(dist.glob("claimledger-*.whl"))
    assert len(wheels) == 1 and list(dist.glob("claimledger-*.tar.gz"))

    fresh = tmp_path / "fresh"
    venv.create(fresh, with_pip=True)
    python = fresh / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheels[0])],
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


@pytest.mark.slow
def test_the_sdist_holds_the_package_and_no_tests_it_cannot_run(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (sdist,) = tmp_path.glob("claimledger-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert not any(name.startswith("tests") for name in names), sorted(names)
    assert {"README.md", "pyproject.toml", "src/claimledger/cli/app.py"} <= names
    assert "src/claimledger/data/templates/report.md.j2" in names
    assert "src/claimledger/data/demo/claims.yaml" in names
