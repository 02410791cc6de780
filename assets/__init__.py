"""Our own MJCF models, meshes and textures, shipped as package data (the control suite's
domains live in assets/suite/, the locomotion walkers in assets/locomotion/walkers/, the
manipulation robots and props in assets/manipulation/)."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parent
SUITE = ROOT / "suite"
LOCOMOTION = ROOT / "locomotion"
MANIPULATION = ROOT / "manipulation"
