"""engine.rollout against mujoco.rollout (MuJoCo 3.17): same trajectories from the same initial
states and controls, the same shapes, tiling and errors; parallel runs bitwise equal to serial."""

import mujoco
import numpy as np
import pytest
from mujoco import rollout as mujoco_rollout

import engine
from engine import rollout as R

FULL = int(mujoco.mjtState.mjSTATE_FULLPHYSICS)
CTRL = int(mujoco.mjtState.mjSTATE_CTRL)

# contacts (free box on a plane), a hinge with a motor and a filter actuator (act), a mocap
# body welded by an equality, sensors of several kinds
XML = """
<mujoco>
  <option timestep="0.005"/>
  <worldbody>
    <light pos="0 0 2"/>
    <geom type="plane" size="5 5 .1"/>
    <body name="box" pos="0 0 .3">
      <freejoint/>
      <geom type="box" size=".1 .05 .08"/>
      <site name="s" pos=".1 0 0"/>
    </body>
    <body name="arm" pos="1 0 1">
      <joint name="yaw" axis="0 0 1"/>
      <joint name="pitch" axis="0 1 0"/>
      <geom type="capsule" size=".02" fromto="0 0 0 .5 0 0"/>
    </body>
    <body name="target" mocap="true" pos="-1 0 1"><geom size=".05" contype="0"/></body>
    <body name="ball" pos="-1 0 .8"><freejoint/><geom size=".05"/></body>
  </worldbody>
  <equality><weld body1="target" body2="ball" solref=".05 1"/></equality>
  <actuator>
    <motor joint="pitch" gear="2"/>
    <general joint="yaw" dyntype="filter" dynprm="1" gainprm="10"/>
  </actuator>
  <sensor>
    <accelerometer site="s"/><jointpos joint="pitch"/><framepos objtype="body" objname="ball"/>
  </sensor>
</mujoco>
"""


@pytest.fixture(scope="module")
def models():
  mjm = mujoco.MjModel.from_xml_string(XML)
  m = engine.MjModel.from_xml_string(XML)
  return mjm, m


def _initial_states(m, n, seed=0):
  """n full-physics states of our model: qpos/qvel perturbed from the reference pose."""
  d = engine.MjData(m)
  rng = np.random.RandomState(seed)
  out = np.zeros((n, engine.mj_stateSize(m, FULL)))
  for i in range(n):
    engine.mj_resetData(m, d)
    d.qpos[:3] += 0.05 * rng.randn(3)
    d.qvel[:] = 0.3 * rng.randn(m.nv)
    d.act[:] = rng.randn(m.na)
    engine.mj_getState(m, d, out[i], FULL)
  return out


def _close(a, b):
  np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-8)


def test_matches_mujoco_rollout(models):
  mjm, m = models
  x0 = _initial_states(m, 6)
  control = np.random.RandomState(1).randn(6, 80, m.nu)
  state, sensordata = R.rollout(m, engine.MjData(m), x0, control)
  theirs = mujoco_rollout.rollout(mjm, mujoco.MjData(mjm), x0, control)
  assert state.shape == theirs[0].shape == (6, 80, x0.shape[1])
  assert sensordata.shape == theirs[1].shape == (6, 80, m.nsensordata)
  _close(state, theirs[0])
  _close(sensordata, theirs[1])


def test_control_specs_warmstart_and_mocap_inputs(models):
  mjm, m = models
  spec = int(
    mujoco.mjtState.mjSTATE_CTRL
    | mujoco.mjtState.mjSTATE_QFRC_APPLIED
    | mujoco.mjtState.mjSTATE_MOCAP_POS
  )
  ncontrol = engine.mj_stateSize(m, spec)
  assert ncontrol == mujoco.mj_stateSize(mjm, spec)
  rng = np.random.RandomState(2)
  x0 = _initial_states(m, 3, seed=3)
  control = 0.5 * rng.randn(3, 40, ncontrol)
  control[..., -3:] += [-1, 0, 1]  # mocap target positions
  warmstart = rng.randn(3, m.nv)
  ours = R.rollout(m, engine.MjData(m), x0, control, control_spec=spec, initial_warmstart=warmstart)
  theirs = mujoco_rollout.rollout(
    mjm, mujoco.MjData(mjm), x0, control, control_spec=spec, initial_warmstart=warmstart
  )
  _close(ours[0], theirs[0])
  _close(ours[1], theirs[1])


def test_singleton_dimensions_are_tiled_and_nstep_inferred(models):
  mjm, m = models
  x0 = _initial_states(m, 1)[0]  # (nstate,): one initial state for every rollout
  control = np.random.RandomState(4).randn(4, 1, m.nu)  # one control per rollout, every step
  ours = R.rollout(m, engine.MjData(m), x0, control, nstep=25)
  theirs = mujoco_rollout.rollout(mjm, mujoco.MjData(mjm), x0, control, nstep=25)
  assert ours[0].shape == (4, 25, x0.size)
  _close(ours[0], theirs[0])
  # no control at all: inputs zero, nstep from the argument
  ours = R.rollout(m, engine.MjData(m), x0, nstep=10)
  theirs = mujoco_rollout.rollout(mjm, mujoco.MjData(mjm), x0, nstep=10)
  assert ours[0].shape == (1, 10, x0.size)
  _close(ours[0], theirs[0])


def test_models_may_differ_per_rollout(models):
  mjm, m = models
  masses = (0.5, 1.0, 3.0)
  ours_models, their_models = [], []
  for mass in masses:
    a, b = engine.MjModel.from_xml_string(XML), mujoco.MjModel.from_xml_string(XML)
    a.body_mass[1] = b.body_mass[1] = mass
    ours_models.append(a)
    their_models.append(b)
  x0 = _initial_states(m, 1)
  control = np.zeros((1, 30, m.nu))
  ours = R.rollout(ours_models, engine.MjData(m), x0, control)
  theirs = mujoco_rollout.rollout(their_models, mujoco.MjData(mjm), x0, control)
  assert ours[0].shape[0] == 3
  _close(ours[0], theirs[0])
  assert not np.allclose(ours[0][0], ours[0][2])  # the masses matter


def test_outputs_written_in_place(models):
  _, m = models
  x0 = _initial_states(m, 2)
  state = np.zeros((2, 5, x0.shape[1]))
  sensordata = np.zeros((2, 5, m.nsensordata))
  out = R.rollout(m, engine.MjData(m), x0, state=state, sensordata=sensordata)
  assert out[0] is state and out[1] is sensordata
  assert np.all(state[:, :, 0] > 0)  # time advanced in place


@pytest.mark.parametrize("ndata,chunk", [(2, None), (2, 1), (3, 2)])
def test_threads_give_the_serial_result_bitwise(models, ndata, chunk):
  _, m = models
  x0 = _initial_states(m, 7, seed=5)
  control = np.random.RandomState(6).randn(7, 60, m.nu)
  serial = R.rollout(m, engine.MjData(m), x0, control)
  datas = [engine.MjData(m) for _ in range(ndata)]
  parallel = R.rollout(m, datas, x0, control, chunk_size=chunk)
  np.testing.assert_array_equal(serial[0], parallel[0])
  np.testing.assert_array_equal(serial[1], parallel[1])
  with R.Rollout(nthread=ndata) as runner:
    again = runner.rollout(m, datas, x0, control, chunk_size=chunk)
  np.testing.assert_array_equal(serial[0], again[0])


def test_diverging_rollout_keeps_its_last_state(models):
  mjm, m = models
  x0 = _initial_states(m, 2)
  control = np.zeros((2, 20, m.nu))
  control[1, 5:] = 1e300  # a huge control: ctrl warning, then MuJoCo's handling
  ours = R.rollout(m, engine.MjData(m), x0, control)
  theirs = mujoco_rollout.rollout(mjm, mujoco.MjData(mjm), x0, control)
  _close(ours[0], theirs[0])
  # after the warning, every remaining step holds the same state
  frozen = ours[0][1, 6:]
  np.testing.assert_array_equal(frozen, np.broadcast_to(frozen[0], frozen.shape))


def test_bad_arguments_raise(models):
  _, m = models
  d = engine.MjData(m)
  x0 = _initial_states(m, 2)
  with pytest.raises(ValueError, match="mjSTATE_USER"):
    R.rollout(m, d, x0, control_spec=int(mujoco.mjtState.mjSTATE_QPOS))
  with pytest.raises(ValueError, match="trailing dimension of initial_state"):
    R.rollout(m, d, x0[:, :-1])
  with pytest.raises(ValueError, match="trailing dimension of control"):
    R.rollout(m, d, x0, np.zeros((2, 3, m.nu + 1)))
  with pytest.raises(ValueError, match="batch dimensions disagree"):
    R.rollout(m, d, x0, np.zeros((3, 4, m.nu)))
  with pytest.raises(ValueError, match="at most 2 dimensions"):
    R.rollout(m, d, x0[None])
  with pytest.raises(ValueError, match="nstep must be an integer"):
    R.rollout(m, d, x0, nstep=2.5)
  with pytest.raises(ValueError, match="models are not compatible"):
    R.rollout([m, engine.MjModel.from_xml_string("<mujoco/>")], d, x0)
  with pytest.raises(ValueError, match="nbatch inferred as 2 but model is length 3"):
    R.rollout([m, m, m], d, x0)
  other = engine.MjData(
    engine.MjModel.from_xml_string(
      "<mujoco><worldbody><body><freejoint/><geom size='.1'/></body></worldbody></mujoco>"
    )
  )
  with pytest.raises(ValueError, match="sizes differ"):
    R.rollout(m, other, x0)
  with pytest.raises(ValueError, match="writable C-contiguous float64"):
    R.rollout(m, d, x0, nstep=3, state=np.zeros((2, 3, x0.shape[1]), np.float32))
  runner = R.Rollout(nthread=2)
  runner.close()
  with pytest.raises(RuntimeError, match="after thread pool shutdown"):
    runner.rollout(m, d, x0)


def test_suite_model_matches_mujoco():
  # a real model: the cheetah, with its contacts, from random initial velocities
  from suite import common

  xml, assets = common.read_model("cheetah.xml"), common.ASSETS
  m = engine.MjModel.from_xml_string(xml, assets)
  mjm = mujoco.MjModel.from_xml_string(xml, assets)
  x0 = np.zeros((4, engine.mj_stateSize(m, FULL)))
  d = engine.MjData(m)
  for i in range(4):
    engine.mj_resetData(m, d)
    d.qvel[:] = 0.2 * np.random.RandomState(i).randn(m.nv)
    engine.mj_getState(m, d, x0[i], FULL)
  control = np.random.RandomState(9).uniform(-1, 1, (4, 200, m.nu))
  ours = R.rollout(m, [engine.MjData(m), engine.MjData(m)], x0, control)
  theirs = mujoco_rollout.rollout(mjm, [mujoco.MjData(mjm), mujoco.MjData(mjm)], x0, control)
  np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6, atol=1e-6)


def test_model_batch_varies_fields_per_world_without_copies(models):
  mjm, m = models
  batch = engine.ModelBatch(m, 3, ["body_mass", "geom_size", "opt.timestep", "opt.gravity"])
  assert batch.body_mass.shape == (3, m.nbody) and batch.opt_gravity.shape == (3, 3)
  batch.body_mass[:, 1] = (0.5, 1.0, 3.0)
  batch.geom_size[2, 1, 0] = 0.15  # world 2: a larger box
  batch.opt_timestep[1] = 0.0025
  batch.opt_gravity[2] = (0, 1, -5)
  # unlisted fields are the model's own memory; listed ones are rows of the batch
  assert np.shares_memory(batch[1].dof_damping, m.dof_damping)
  assert np.shares_memory(batch[1].body_mass, batch.body_mass)
  x0 = _initial_states(m, 1)
  control = np.random.RandomState(7).randn(1, 40, m.nu)
  ours = R.rollout(batch, [engine.MjData(m), engine.MjData(m)], x0, control)
  copies, theirs_models = [], []
  for i in range(3):
    a, b = engine.MjModel.from_xml_string(XML), mujoco.MjModel.from_xml_string(XML)
    for model in (a, b):
      model.body_mass[:] = batch.body_mass[i]
      model.geom_size[:] = batch.geom_size[i]
      model.opt.timestep = batch.opt_timestep[i].item()
      model.opt.gravity[:] = batch.opt_gravity[i]
    copies.append(a)
    theirs_models.append(b)
  np.testing.assert_array_equal(ours[0], R.rollout(copies, engine.MjData(m), x0, control)[0])
  theirs = mujoco_rollout.rollout(theirs_models, mujoco.MjData(mjm), x0, control)
  _close(ours[0], theirs[0])
  # a world steps on its own too
  d = engine.MjData(m)
  engine.mj_step(batch[2], d)
  with pytest.raises(ValueError, match="no array field 'nope'"):
    engine.ModelBatch(m, 2, ["nope"])


def test_a_physics_over_a_batch_world_sees_its_own_fields_and_options(models):
  _, m = models
  batch = engine.ModelBatch(m, 2, ["geom_size", "opt.gravity"])
  batch.geom_size[1, 1] = (0.2, 0.05, 0.08)  # world 1: a longer box
  batch.opt_gravity[1] = (0, 0, -2)
  world = engine.Physics.from_model(batch[1])
  np.testing.assert_array_equal(world.named.model.geom_size[1], (0.2, 0.05, 0.08))
  np.testing.assert_array_equal(world.model.opt.gravity, (0, 0, -2))
  twin = engine.Physics.from_xml_string(XML)  # a full copy edited the same way
  twin.model.geom_size[1] = (0.2, 0.05, 0.08)
  twin.model.opt.gravity[:] = (0, 0, -2)
  for physics in (world, twin):
    with physics.reset_context():  # forward without actuation: the world's handle too
      physics.data.qpos[2] = 0.1  # the box starts half inside the floor
    physics.step(30)
  assert world.data.ncon > 0
  np.testing.assert_array_equal(world.data.qpos, twin.data.qpos)
  np.testing.assert_array_equal(world.data.efc_force, twin.data.efc_force)
  # world 0 and the shared model are untouched
  np.testing.assert_array_equal(batch[0].opt.gravity, m.opt.gravity)
  np.testing.assert_array_equal(m.geom_size[1], (0.1, 0.05, 0.08))


def test_cem_example_swings_the_pole_up_and_replays_step_by_step():
  from examples import cem_swingup
  from suite import common

  best, history = cem_swingup.plan(iterations=5, samples=64, horizon=300, verbose=False)
  assert max(history) > 0.5  # a hanging pole scores 0
  # the best plan, stepped with mj_step one step at a time, scores what its rollout scored
  m = engine.MjModel.from_xml_string(common.read_model("cartpole.xml"), common.ASSETS)
  d = engine.MjData(m)
  d.qpos[1] = np.pi
  states = np.zeros((1, len(best), engine.mj_stateSize(m, FULL)))
  for t, u in enumerate(best):
    d.ctrl[:] = u
    engine.mj_step(m, d)
    engine.mj_getState(m, d, states[0, t], FULL)
  assert cem_swingup.score(states)[0] == history[-1]


def _rollout_in_child(m, x0, queue):
  with pytest.warns(RuntimeWarning, match="forked"):
    state, _ = R.rollout(m, [engine.MjData(m), engine.MjData(m)], x0, nstep=30)
  queue.put(state)


def test_forked_child_rolls_out_on_one_thread_with_the_same_result(models):
  # OpenMP kills a child forked after the parent used the thread pool, as soon as it enters
  # it; the child runs serially instead (bitwise the same trajectories) and says why
  import multiprocessing

  _, m = models
  x0 = _initial_states(m, 4, seed=8)
  parent, _ = R.rollout(m, [engine.MjData(m), engine.MjData(m)], x0, nstep=30)
  context = multiprocessing.get_context("fork")
  queue = context.Queue()
  child = context.Process(target=_rollout_in_child, args=(m, x0, queue))
  child.start()
  state = queue.get(timeout=120)
  child.join(60)
  assert child.exitcode == 0
  np.testing.assert_array_equal(state, parent)
