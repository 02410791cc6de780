"""The sparse M/D/B layouts equal MuJoCo's for fixed and random kinematic trees."""

import mujoco
import numpy as np
import pytest

from engine.compiler.sparsity import mass_sparsity
from tests import trees


@pytest.mark.parametrize("seed", range(12))
def test_layout_matches_mujoco(seed):
  mjm = mujoco.MjModel.from_xml_string(trees.random_tree_xml(seed))
  s = mass_sparsity(mjm.dof_parentid, mjm.body_parentid, mjm.body_dofadr, mjm.body_dofnum)
  for name, value in s["sizes"].items():
    assert value == getattr(mjm, name), name
  for name, value in s["arrays"].items():
    np.testing.assert_array_equal(value, getattr(mjm, name), err_msg=name)
