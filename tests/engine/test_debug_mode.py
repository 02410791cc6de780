"""The engine runs as plain Python under NUMBA_DISABLE_JIT=1 and gives MuJoCo's numbers."""

import os
import pathlib
import subprocess
import sys

_SCRIPT = """
import mujoco, numpy as np
import engine
from engine import _jit
from tests import oracle
assert _jit.DISABLE_JIT
xml = '''<mujoco><option timestep="0.01"/><worldbody><body pos="0 0 1">
  <joint type="ball" damping=".1"/><geom type="capsule" fromto="0 0 0 .2 0 0" size=".03"/>
  <body pos=".2 0 0"><joint axis="0 1 0" stiffness="2"/><geom type="box" size=".05 .05 .05"/>
  </body></body></worldbody><actuator><motor joint="0" gear="2"/></actuator></mujoco>'''
xml = xml.replace('joint="0"', 'joint="j"').replace('<joint axis', '<joint name="j" axis')
mjm, mjd, m, d = oracle.load(xml)
mjd.qvel[:] = [0.3, -0.2, 0.1, 1.0]
mjd.ctrl[:] = 0.5
oracle.copy_state(mjd, d)
for _ in range(3):
  mujoco.mj_step(mjm, mjd)
engine.mj_step(m, d, 3)
np.testing.assert_allclose(d.qpos, mjd.qpos, atol=1e-9)
np.testing.assert_allclose(d.qvel, mjd.qvel, atol=1e-9)
print("ok", type(m._struct).__name__)
"""


def test_engine_runs_without_jit():
  root = pathlib.Path(__file__).resolve().parents[2]
  env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(root))
  out = subprocess.run(
    [sys.executable, "-c", _SCRIPT], env=env, cwd=root, capture_output=True, text=True, timeout=600
  )
  assert out.returncode == 0, out.stderr[-3000:]
  assert out.stdout.strip() == "ok SimpleNamespace"
