"""One compilation serves every model: a second, different model adds no numba signature."""

import numpy as np

import engine
from engine import _structs
from engine import forward
from tests import oracle
from tests import trees

_ENTRY_POINTS = (
  _structs.make_model, _structs.make_data, _structs.make_option, _structs.make_statistic,
  forward.dispatch,
)


def _run(xml):
  _, _, m, d = oracle.load(xml)
  d.qvel[:] = 0.1
  engine.mj_step(m, d, 3)
  engine.mj_step1(m, d)
  engine.mj_step2(m, d)
  engine.mj_forwardSkip(m, d, 0, 0)
  return d


def test_second_model_needs_no_compilation():
  _run(trees.random_tree_xml(0, nbody=4))
  before = [len(f.signatures) for f in _ENTRY_POINTS]
  assert before == [1] * len(_ENTRY_POINTS)
  # a different model: other sizes, a mocap body, keyframes, actuators and tendons
  d = _run(
    """<mujoco><worldbody><body mocap="true"/><body><joint name="a"/><geom size=".1"/>
    <body pos=".3 0 0"><joint name="b" type="slide"/><geom size=".1"/></body></body>
    </worldbody><tendon><fixed name="t"><joint joint="a" coef="1"/></fixed></tendon>
    <actuator><motor joint="a"/><muscle tendon="t" lengthrange=".1 .5"/></actuator>
    <keyframe><key qpos=".1 .2"/></keyframe></mujoco>"""
  )
  assert np.all(np.isfinite(d.qpos))
  assert [len(f.signatures) for f in _ENTRY_POINTS] == before
