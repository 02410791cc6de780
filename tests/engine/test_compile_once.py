"""One compilation serves every model: a second, different model adds no numba signature.

Every stage is compiled for exactly its declared signature (engine/_stage.py), and stepping
a model with other sizes, mocap bodies, keyframes, actuators and tendons adds none (it may load
stages the first model did not reach, each with its one signature).
"""

import numba
import numpy as np
import pytest

import engine
from engine import _stage
from tests import oracle
from tests import trees

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="counts numba compilations")


def _signatures():
  counts = {s.name: len(s.dispatcher.signatures) for s in _stage.STAGES}
  counts["address_of"] = len(_stage._address_of.signatures)
  return counts


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
  before = _signatures()
  # every stage that ran has its one signature; address_of one per handle type (option,
  # statistic, model, data)
  assert all(n <= 1 for name, n in before.items() if name != "address_of"), before
  assert before["address_of"] == 4
  # a different model: other sizes, a mocap body, keyframes, actuators and tendons
  d = _run(
    """<mujoco><worldbody><body mocap="true"/><body><joint name="a"/><geom size=".1"/>
    <body pos=".3 0 0"><joint name="b" type="slide"/><geom size=".1"/></body></body>
    </worldbody><tendon><fixed name="t"><joint joint="a" coef="1"/></fixed></tendon>
    <actuator><motor joint="a"/><muscle tendon="t" lengthrange=".1 .5"/></actuator>
    <keyframe><key qpos=".1 .2"/></keyframe></mujoco>"""
  )
  assert np.all(np.isfinite(d.qpos))
  after = _signatures()
  # stages of the first model kept their one signature; the second loaded the stages only it
  # reaches (its keyframes) with theirs
  assert {name: after[name] for name, n in before.items() if n} == {
    name: n for name, n in before.items() if n
  }
  assert all(n <= 1 for name, n in after.items() if name != "address_of"), after


def test_stage_rejects_other_argument_types():
  """A Python call with other types raises instead of compiling a second version."""
  _, _, m, d = oracle.load(trees.random_tree_xml(0, nbody=3))
  engine.mj_forward(m, d)
  with pytest.raises(TypeError):
    engine.smooth.rne(m._struct, d._struct, 0, np.zeros(m.nv, np.float32))
