"""The training examples run end to end: a few hundred steps each, a curve, a PNG, no illegal action.

Each example's evaluation raises if its policy ever picks an illegal action, so
these runs also check that the masks reach the library's policy.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _example(name: str, *packages: str) -> ModuleType:
    for package in packages:
        pytest.importorskip(package, reason=f"examples/{name}.py needs {package} (the 'train' extra)")
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _check_curve(curve, png: Path, steps: int) -> None:
    assert [point.steps for point in curve] == sorted(point.steps for point in curve)
    assert curve[0].steps == 0 and curve[-1].steps >= steps
    assert len(curve) == 3
    for point in curve:
        assert 0.0 <= point.win_rate <= 1.0 and -1.0 <= point.mean_return <= 1.0 and point.games == 2
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


COMMON = ["--checkpoints", "2", "--eval-games", "2"]


def test_maskable_ppo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = _example("train_maskable_ppo", "torch", "sb3_contrib")
    png = tmp_path / "ppo.png"
    curve = example.main(["--steps", "256", *COMMON, "--envs", "2", "--n-steps", "64", "--plot", str(png)])
    _check_curve(curve, png, 256)
    assert capsys.readouterr().out.count("win rate vs random") == 3


@pytest.mark.parametrize("api", ["gym", "pettingzoo"])
def test_tianshou(tmp_path: Path, api: str) -> None:
    example = _example("train_tianshou", "torch", "tianshou")
    png = tmp_path / "tianshou.png"
    _check_curve(example.main(["--api", api, "--steps", "300", *COMMON, "--envs", "2", "--plot", str(png)]), png, 300)


def test_rllib(tmp_path: Path) -> None:
    example = _example("train_rllib", "torch", "ray.rllib")
    png = tmp_path / "rllib.png"
    _check_curve(example.main(["--steps", "300", *COMMON, "--batch", "150", "--plot", str(png)]), png, 300)


def test_examples_refuse_empty_runs(capsys: pytest.CaptureFixture[str]) -> None:
    curves = _example("curves")
    parser = curves.parser("test", steps=10)
    with pytest.raises(SystemExit):
        curves.check(parser.parse_args(["--steps", "0"]), parser)
    assert "--steps must be at least 1" in capsys.readouterr().err
