"""dm_control.mujoco's module-level helpers in the engine, against dm_control itself:
`engine.action_spec(physics)` and the math helpers of `dm_control.mujoco.math`, reached as
`from engine import math as mjmath`."""

import numpy as np
import pytest
from dm_control import mujoco as dm_mujoco
from dm_control.mujoco import math as dm_math

import engine
from engine import math as mjmath

XML = """
<mujoco>
  <worldbody>
    <body><joint name="a"/><geom size=".1"/>
      <body><joint name="b" axis="1 0 0"/><geom size=".1"/></body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="a" ctrlrange="-2 3"/>
    <motor joint="b"/>
    <position joint="b" ctrlrange="-0.5 0.5" ctrllimited="false"/>
  </actuator>
</mujoco>
"""


def test_action_spec_matches_dm_control():
  ours = engine.action_spec(engine.Physics.from_xml_string(XML))
  theirs = dm_mujoco.action_spec(dm_mujoco.Physics.from_xml_string(XML))
  assert ours == theirs
  np.testing.assert_array_equal(ours.minimum, theirs.minimum)
  np.testing.assert_array_equal(ours.maximum, theirs.maximum)


@pytest.mark.parametrize("seed", range(5))
def test_math_helpers_match_dm_control(seed):
  rng = np.random.RandomState(seed)
  angles = rng.uniform(-180, 180, 3)
  np.testing.assert_allclose(
    mjmath.euler2quat(*angles), dm_math.euler2quat(*angles), rtol=0, atol=1e-15
  )
  q = rng.standard_normal(4)
  q /= np.linalg.norm(q)
  r = rng.standard_normal(4)
  r /= np.linalg.norm(r)
  np.testing.assert_array_equal(mjmath.mj_quatprod(q, r), dm_math.mj_quatprod(q, r))
  np.testing.assert_array_equal(mjmath.mj_quatneg(q), dm_math.mj_quatneg(q))
  np.testing.assert_allclose(
    mjmath.mj_quatdiff(q, r), dm_math.mj_quatdiff(q, r), rtol=0, atol=1e-15
  )
  np.testing.assert_allclose(
    mjmath.mj_quat2vel(q, 0.01), dm_math.mj_quat2vel(q, 0.01), rtol=1e-14, atol=1e-12
  )
