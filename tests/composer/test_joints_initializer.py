"""JointsInitializer: joint states drawn from variations at episode start (values checked
against the same numpy draws; limited one-coordinate joints clipped into their range)."""

import numpy as np
import pytest

import mjcf
from composer.initializers import JointsInitializer
from composer.variation import distributions


def _model():
  root = mjcf.RootElement()
  root.compiler.angle = "radian"
  body = root.worldbody.add("body")
  hinge = body.add("joint", name="hinge", range=[-0.5, 0.5], limited="true")
  body.add("geom", size=[0.1])
  child = body.add("body", pos=[0, 0, 1])
  slide = child.add("joint", name="slide", type="slide")
  child.add("geom", size=[0.1])
  other = root.worldbody.add("body", pos=[1, 0, 0])
  ball = other.add("joint", name="ball", type="ball")
  other.add("geom", size=[0.1])
  return root, hinge, slide, ball


def test_positions_and_velocities_are_drawn_and_clipped():
  root, hinge, slide, ball = _model()
  physics = mjcf.Physics.from_mjcf_model(root)
  init = JointsInitializer(
    [hinge, slide],
    position=distributions.Uniform([-1, -1], [1, 1]),
    velocity=distributions.Uniform([-2, -2], [2, 2]),
  )
  init(physics, np.random.RandomState(4))
  reference = np.random.RandomState(4)
  qpos = reference.uniform([-1, -1], [1, 1])
  qvel = reference.uniform([-2, -2], [2, 2])
  bound = physics.bind([hinge, slide])
  np.testing.assert_array_equal(bound.qpos, [np.clip(qpos[0], -0.5, 0.5), qpos[1]])
  np.testing.assert_array_equal(bound.qvel, qvel)
  assert abs(qpos[0]) > 0.5  # this draw was clipped
  # the ball joint was left alone
  np.testing.assert_array_equal(physics.bind(ball).qpos, [1, 0, 0, 0])


def test_fixed_values_and_ball_joints():
  root, hinge, slide, ball = _model()
  physics = mjcf.Physics.from_mjcf_model(root)
  quat = np.array([0.5, 0.5, 0.5, 0.5])
  JointsInitializer([hinge, ball], position=np.concatenate([[0.2], quat]), velocity=0.0)(
    physics, np.random.RandomState(0)
  )
  np.testing.assert_array_equal(physics.bind(hinge).qpos, [0.2])
  np.testing.assert_array_equal(physics.bind(ball).qpos, quat)
  np.testing.assert_array_equal(physics.bind(ball).qvel, [0, 0, 0])


def test_wrong_sizes_are_rejected():
  root, hinge, slide, _ = _model()
  physics = mjcf.Physics.from_mjcf_model(root)
  with pytest.raises(ValueError):
    JointsInitializer([hinge, slide], position=[0.1, 0.2, 0.3])(physics, np.random.RandomState(0))
  with pytest.raises(ValueError, match="at least one joint"):
    JointsInitializer([])
