"""suite.declare: parameters resolved by name, layouts and offsets from declared shapes, the
derived Physics methods, and rewards.tolerance in jitted code against the Python one."""

import math

import numba
import numpy as np
import pytest

import engine
from suite import control
from suite import declare
from suite import features
from suite import humanoid
from suite import kernels
from suite.utils import rewards

# a free-floating ball first, so that the arm's joints have addresses other than their ids
_XML = """
<mujoco>
  <worldbody>
    <body name="ball" pos="0 0 2"><freejoint/><geom name="ball" size=".1"/></body>
    <body name="arm" pos="0 0 1">
      <joint name="slide" type="slide" axis="1 0 0"/>
      <geom name="arm" type="capsule" fromto="0 0 0 .5 0 0" size=".05"/>
      <body name="hand" pos=".5 0 0">
        <joint name="hinge" axis="0 1 0"/>
        <geom name="hand" size=".1"/>
        <site name="tip" pos=".1 0 0"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor joint="hinge"/></actuator>
  <sensor>
    <framepos name="tip_position" objtype="site" objname="tip"/>
    <jointpos name="hinge_angle" joint="hinge"/>
  </sensor>
</mujoco>
"""

PARAMS = declare.Params(
  hand=declare.body("hand"),
  limbs=declare.bodies("arm", "hand"),
  hand_geom=declare.geom("hand"),
  tip=declare.site("tip"),
  angle=declare.sensor("hinge_angle"),
  slide_qpos=declare.qpos("slide"),
  hinge_dof=declare.dof("hinge"),
  gain=declare.number(),  # the task's attribute
  offset=declare.number(0.25),  # fixed
  sparse=declare.flag(),
  axis=declare.integer(2),
)


@declare.feature(())
def tip_height(m, d, p):
  return d.site_xpos[p.tip, 2]


@declare.feature((3,))
def hand_position(m, d, p):
  return d.xpos[p.hand, 0], d.xpos[p.hand, 1], d.xpos[p.hand, 2]


@declare.feature(lambda m: (m.nq,))
def joint_positions(m, d, p, out):
  for i in range(m.nq):
    out[i] = d.qpos[i]


@declare.feature((2, 3))
def limb_positions(m, d, p, out):
  for i in range(len(p.limbs)):
    for j in range(3):
      out[3 * i + j] = d.xpos[p.limbs[i], j]


@declare.feature((11,))
def params_read(m, d, p):
  """Every parameter as jitted code reads it (ints, a tuple, floats, a bool)."""
  return (
    float(p.hand),
    float(p.limbs[0]),
    float(p.limbs[1]),
    float(p.hand_geom),
    float(p.tip),
    float(p.angle + p.slide_qpos),
    float(p.hinge_dof),
    p.gain,
    p.offset,
    1.0 if p.sparse else -1.0,
    float(p.axis),
  )


@declare.feature((2,))
def too_few_values(m, d, p):
  return (1.0,)


OBSERVATION = declare.Observation(
  PARAMS, tip_height, ("hand", hand_position), joint_positions, limb_positions, features.velocity
)
PARAMS_READ = declare.Observation(PARAMS, params_read)


@declare.reward(PARAMS)
def reward(m, d, p):
  return p.gain * tip_height(m, d, p) + p.offset


@declare.reward(PARAMS, termination=lambda m, d, p: 0.0 if p.sparse else np.nan)
def ending_reward(m, d, p):
  return 1.0


class Physics(declare.Physics):
  params = PARAMS
  features = (tip_height, hand_position, limb_positions)


class Task(declare.Task):
  observation = OBSERVATION
  reward = reward

  def __init__(self, gain=2.0, sparse=True):
    self.gain, self.sparse = gain, sparse
    super().__init__(random=0)


def _physics():
  physics = Physics.from_xml_string(_XML)
  physics.data.qpos[:] = np.linspace(0.1, 0.9, physics.model.nq)
  physics.data.qvel[:] = np.linspace(-1.0, 1.0, physics.model.nv)
  physics.forward()
  return physics


def test_names_resolve_to_the_models_ids_and_addresses():
  physics = _physics()
  model = physics.model
  vector = PARAMS.resolve(model)
  hand, arm = model.name2id("hand", "body"), model.name2id("arm", "body")
  # the angle sensor's values follow the tip's 3; the slide and hinge follow the free joint
  expected = [
    hand,
    arm,
    hand,
    model.name2id("hand", "geom"),
    model.name2id("tip", "site"),
    3,
    7,
    7,
    np.nan,
    0.25,
    np.nan,
    2,
  ]
  np.testing.assert_array_equal(vector, expected)
  assert model.sensor_adr[model.name2id("hinge_angle", "sensor")] == 3
  assert model.jnt_qposadr[model.name2id("slide", "joint")] == 7
  assert model.jnt_dofadr[model.name2id("hinge", "joint")] == 7
  task = Task(gain=1.5, sparse=False)
  packed = task.kernel_params(physics)
  assert packed[PARAMS.offsets["gain"]] == 1.5 and packed[PARAMS.offsets["sparse"]] == 0.0
  assert PARAMS.size == len(expected)


def test_jitted_code_reads_each_parameter_by_name():
  physics = _physics()
  task = Task(gain=1.5, sparse=True)
  out = np.empty(11)
  kernels.run(PARAMS_READ.kernel, physics, task.kernel_params(physics), out)
  model = physics.model
  hand, arm = model.name2id("hand", "body"), model.name2id("arm", "body")
  np.testing.assert_array_equal(
    out,
    [
      hand,
      arm,
      hand,
      model.name2id("hand", "geom"),
      model.name2id("tip", "site"),
      3 + 7,
      7,
      1.5,
      0.25,
      1.0,
      2,
    ],
  )


JOINTS = declare.Params(
  coordinates=declare.qposes("hinge", "slide"), velocities=declare.dofs("hinge", "slide")
)


@declare.feature((4,))
def joint_addresses(m, d, p):
  """The plural joint parameters as jitted code reads them (tuples of ints)."""
  first, second = p.coordinates
  return float(first), float(second), float(p.velocities[0]), float(p.velocities[1])


def test_plural_joint_parameters_are_the_joints_addresses():
  """qposes/dofs give each joint's first qpos and qvel address (the free joint before them
  takes 7 and 6), in the order named."""
  physics = _physics()
  model = physics.model
  joints = [model.name2id(name, "joint") for name in ("hinge", "slide")]
  expected = [*model.jnt_qposadr[joints], *model.jnt_dofadr[joints]]
  assert expected == [8, 7, 7, 6]
  np.testing.assert_array_equal(JOINTS.resolve(model), expected)
  out = np.empty(4)
  kernels.run(
    declare.Observation(JOINTS, joint_addresses).kernel, physics, JOINTS.resolve(model), out
  )
  np.testing.assert_array_equal(out, expected)
  with pytest.raises(
    engine.Error, match="parameter 'coordinates': the model has no joint named 'elbow'"
  ):
    declare.Params(coordinates=declare.qposes("hinge", "elbow")).resolve(model)


def test_a_missing_name_raises_naming_it():
  physics = control.Physics.from_xml_string(_XML)
  with pytest.raises(engine.Error, match="parameter 'head': the model has no body named 'head'"):
    declare.Params(head=declare.body("head")).resolve(physics.model)
  with pytest.raises(
    engine.Error, match="parameter 'speed': the model has no sensor named 'torso_subtreelinvel'"
  ):
    declare.Params(speed=declare.sensor("torso_subtreelinvel")).resolve(physics.model)

  class Renamed(Physics):
    params = PARAMS.renamed(limbs=("arm", "finger"))

  with pytest.raises(engine.Error, match="parameter 'limbs': the model has no body named 'finger'"):
    Renamed.from_xml_string(_XML)  # (a Physics resolves the names as it loads a model)


def test_renamed_params_keep_the_layout():
  renamed = PARAMS.renamed(hand="arm", limbs=("hand", "arm"), offset=-1.0)
  assert renamed.tuple_type is PARAMS.tuple_type and renamed.offsets == PARAMS.offsets
  physics = _physics()
  vector = renamed.resolve(physics.model)
  arm, hand = physics.model.name2id("arm", "body"), physics.model.name2id("hand", "body")
  assert vector[renamed.offsets["hand"]] == arm
  assert list(vector[renamed.offsets["limbs"] :][:2]) == [hand, arm]
  assert vector[renamed.offsets["offset"]] == -1.0
  assert PARAMS.resolve(physics.model)[PARAMS.offsets["offset"]] == 0.25  # the original kept
  with pytest.raises(ValueError, match="no parameters"):
    PARAMS.renamed(foot="foot")
  with pytest.raises(ValueError, match="2 names"):
    PARAMS.renamed(limbs="arm")


def test_layout_and_offsets_follow_the_declared_shapes():
  physics = _physics()
  task = Task()
  model = physics.model
  assert task.observation_layout(physics) == (
    ("tip_height", ()),
    ("hand", (3,)),
    ("joint_positions", (model.nq,)),
    ("limb_positions", (2, 3)),
    ("velocity", (model.nv,)),
  )
  observation = task.get_observation(physics)
  data = physics.named.data
  assert observation["tip_height"] == data.site_xpos["tip", "z"]
  np.testing.assert_array_equal(observation["hand"], data.xpos["hand"])
  np.testing.assert_array_equal(observation["joint_positions"], physics.data.qpos)
  np.testing.assert_array_equal(observation["limb_positions"], data.xpos[["arm", "hand"]])
  np.testing.assert_array_equal(observation["velocity"], physics.data.qvel)
  # the flat vector the kernel writes: each feature at the sum of the sizes before it
  flat = np.full(1 + 3 + model.nq + 6 + model.nv, np.nan)
  kernels.run(task.observe_kernel, physics, task.kernel_params(physics), flat)
  np.testing.assert_array_equal(flat, np.concatenate([np.ravel(v) for v in observation.values()]))


def test_physics_methods_run_the_features():
  physics = _physics()
  data = physics.named.data
  height = physics.tip_height()
  assert np.shape(height) == () and height == data.site_xpos["tip", "z"]
  np.testing.assert_array_equal(physics.hand_position(), data.xpos["hand"])
  assert physics.limb_positions().shape == (2, 3)
  np.testing.assert_array_equal(physics.limb_positions(), data.xpos[["arm", "hand"]])
  assert Physics.tip_height.__name__ == "tip_height"
  copy = physics.copy()  # the copy resolves the names again
  np.testing.assert_array_equal(copy.hand_position(), physics.hand_position())


def test_the_humanoids_methods_match_its_observation():
  env = humanoid.walk(random=2)
  observation = env.reset().observation
  physics = env.physics
  np.testing.assert_array_equal(physics.extremities(), observation["extremities"])
  np.testing.assert_array_equal(physics.center_of_mass_velocity(), observation["com_velocity"])
  assert physics.head_height() == observation["head_height"]
  assert physics.torso_upright() == physics.named.data.xmat["torso", "zz"]


def test_reward_and_termination():
  physics = _physics()
  task = Task(gain=2.0)
  assert task.get_reward(physics) == 2.0 * physics.named.data.site_xpos["tip", "z"] + 0.25
  assert task.get_termination(physics) is None and not task.terminates

  class Ending(Task):
    reward = ending_reward

  assert Ending(sparse=True).terminates
  assert Ending(sparse=True).get_termination(physics) == 0.0
  assert Ending(sparse=False).get_termination(physics) is None


def test_a_feature_returning_other_than_its_shape_raises():
  physics = _physics()
  observation = declare.Observation(PARAMS, too_few_values)
  with pytest.raises(ValueError, match="declared number of values"):
    kernels.run(observation.kernel, physics, PARAMS.resolve(physics.model), np.empty(2))


@declare.feature((2,))
def allocating(m, d, p, out):
  scratch = np.zeros(2)
  out[0], out[1] = scratch[0], scratch[1]


def test_declared_kernels_compile_without_reference_counting():
  """Inlined features would count m and d up and down at every call (atomics, ~40 ns a
  kernel); the declared kernels compile numba's runtime out, so an allocation cannot
  compile."""
  physics = _physics()
  observation = declare.Observation(PARAMS, allocating)
  # (numba's refusal of an allocation without its runtime)
  with pytest.raises(
    numba.core.errors.TypingError, match="Only accept returning of array passed into the function"
  ):
    kernels.run(observation.kernel, physics, PARAMS.resolve(physics.model), np.empty(2))


def test_declaration_errors():
  with pytest.raises(TypeError, match="writes `out`"):
    declare.feature(lambda m: (m.nq,))(lambda m, d, p: 0.0)

  class Mismatched(Task):
    params = declare.Params(hand=declare.body("hand"))

  with pytest.raises(TypeError, match="not the layout"):
    Mismatched().kernel_params(_physics())


def test_functions_of_one_factory_need_names_of_their_own():
  def height_above(level):
    def height(m, d, p):
      return d.site_xpos[p.tip, 2] - level

    return declare.feature(())(height)

  declare.Observation(PARAMS, height_above(0.0))
  with pytest.raises(ValueError, match="name each one"):
    declare.Observation(PARAMS, height_above(1.0))


def test_kernels_of_different_declarations_have_different_names():
  """Kernels are cached by name: two declarations in one module must not share one."""
  other = declare.Observation(PARAMS, ("tip_height", too_few_values))
  names = {
    OBSERVATION.kernel.name,
    PARAMS_READ.kernel.name,
    other.kernel.name,
    reward.kernel.name,
    ending_reward.kernel.name,
  }
  assert len(names) == 5
  assert all(name.startswith(__name__ + ".") for name in names)


# ---- rewards.tolerance in jitted code ----


def _jitted_tolerance(sigmoid, keywords=True):
  """A jitted tolerance(x, lower, upper, margin, value_at_margin) with the sigmoid's name as the
  literal a reward would write."""
  if keywords:

    def tolerance(x, lower, upper, margin, value_at_margin):
      return rewards.tolerance(
        x, bounds=(lower, upper), margin=margin, sigmoid=sigmoid, value_at_margin=value_at_margin
      )
  else:

    def tolerance(x, lower, upper, margin, value_at_margin):
      return rewards.tolerance(x, (lower, upper), margin, sigmoid, value_at_margin)

  return numba.njit(tolerance)


_BOUNDS_AND_MARGINS = [
  ((-0.5, 1.0), 1.3),
  ((0.0, 0.0), 2.0),
  ((1.0, np.inf), 0.5),
  ((-np.inf, 0.2), 3.0),
  ((0.3, 0.7), 0.0),
  ((2.0, 2.0), 0.0),
]


@pytest.mark.parametrize("sigmoid", rewards.SIGMOIDS)
def test_jitted_tolerance_is_the_python_one(sigmoid):
  value_at_margin = 0.0 if sigmoid in ("cosine", "linear", "quadratic") else 0.1
  for keywords in (True, False):
    jitted = _jitted_tolerance(sigmoid, keywords)
    for (lower, upper), margin in _BOUNDS_AND_MARGINS:
      for x in np.linspace(-4.0, 5.0, 37):
        expected = rewards.tolerance(
          x, bounds=(lower, upper), margin=margin, sigmoid=sigmoid, value_at_margin=value_at_margin
        )
        got = jitted(x, lower, upper, margin, value_at_margin)
        assert got == pytest.approx(expected, rel=1e-14, abs=1e-15), (x, lower, upper, margin)


def test_jitted_tolerance_defaults_are_dm_controls():
  @numba.njit
  def defaults(x):
    return (
      rewards.tolerance(x),
      rewards.tolerance(x, margin=2.0),
      rewards.tolerance(x, bounds=(1, 2), margin=1),
    )

  for x in (-1.0, 0.0, 0.5, 3.0):
    assert defaults(x) == pytest.approx(
      (
        rewards.tolerance(x),
        rewards.tolerance(x, margin=2.0),
        rewards.tolerance(x, bounds=(1, 2), margin=1),
      ),
      rel=1e-14,
    )
  assert math.isclose(defaults(2.0)[1], 0.1)  # gaussian, 0.1 at the margin


def test_jitted_tolerance_names_an_unknown_sigmoid():
  with pytest.raises(numba.core.errors.TypingError, match="Unknown sigmoid type 'logistic'"):
    _jitted_tolerance("logistic")(0.0, 0.0, 1.0, 1.0, 0.1)
