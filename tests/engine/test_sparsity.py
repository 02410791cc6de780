"""The sparse M/D/B layouts equal MuJoCo's for fixed and random kinematic trees."""

import mujoco
import numpy as np
import pytest

from engine.compiler.sparsity import mass_sparsity
from tests import trees

_SIMPLE_BODIES = """
<mujoco>
  <worldbody>
    <body><freejoint/><geom type="box" size=".1 .2 .3"/></body>
    <body><freejoint/><geom type="box" size=".1 .2 .3" pos=".1 0 0"/></body>
    <body><joint type="slide"/><joint type="slide" axis="0 1 0"/><geom size=".1"/></body>
    <body><freejoint/><geom size=".1"/><body><joint/><geom size=".1"/></body></body>
    <body><freejoint/><geom type="box" size=".1 .2 .3"/></body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("seed", [*range(12), "simple"])
def test_layout_matches_mujoco(seed):
  """Random trees, and free/slider bodies whose diagonal inertia ("simple" dofs) prunes rows."""
  xml = _SIMPLE_BODIES if seed == "simple" else trees.random_tree_xml(seed)
  mjm = mujoco.MjModel.from_xml_string(xml)
  s = mass_sparsity(
    mjm.dof_parentid, mjm.body_parentid, mjm.body_dofadr, mjm.body_dofnum, mjm.dof_simplenum
  )
  for name, value in s["sizes"].items():
    assert value == getattr(mjm, name), name
  for name, value in s["arrays"].items():
    np.testing.assert_array_equal(value, getattr(mjm, name), err_msg=name)
