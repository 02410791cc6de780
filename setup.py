"""Build hook: a wheel that carries the compiled engine is tagged for its Python and platform.

`python -m suite.wheel DIR` compiles the engine into engine/_prebuilt (package data),
and the wheel built after it holds machine code for this Python, this numba and this CPU
class: it is then marked as not pure, so that pip installs it only where that code can run.
Everything else is declared in pyproject.toml.
"""

import pathlib

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel

PREBUILT = pathlib.Path(__file__).resolve().parent / "engine" / "_prebuilt"


class BdistWheel(bdist_wheel):
  def finalize_options(self):
    super().finalize_options()
    if PREBUILT.is_dir():
      self.root_is_pure = False  # tagged cpXY-cpXY-<platform>


setup(cmdclass={"bdist_wheel": BdistWheel})
