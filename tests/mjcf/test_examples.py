"""The PyMJCF documentation's examples, built, compiled and simulated, checked against MuJoCo."""

import mujoco
import numpy as np

import mjcf
from tests.mjcf import builders


def _oracle(model, nstep):
  """MuJoCo's model and data for the same XML after `nstep` steps (then mj_forward)."""
  m = mujoco.MjModel.from_xml_string(model.to_xml_string(), model.get_assets())
  d = mujoco.MjData(m)
  mujoco.mj_forward(m, d)
  for _ in range(nstep):
    mujoco.mj_step(m, d)
  mujoco.mj_forward(m, d)
  return m, d


def test_upper_body_two_arms():
  body = builders.UpperBody()
  model = body.mjcf_model
  names = [el.full_identifier for el in model.find_all("joint")]
  assert names == ["left_arm/shoulder", "left_arm/elbow", "right_arm/shoulder", "right_arm/elbow"]
  physics = mjcf.Physics.from_mjcf_model(model)
  assert physics.model.nq == 10 and physics.model.nbody == 7
  m, d = _oracle(model, 0)
  np.testing.assert_allclose(physics.data.xpos, d.xpos, atol=1e-12)
  left, right = body.left_arm, body.right_arm
  np.testing.assert_allclose(
    physics.bind([left.upper_arm, right.upper_arm]).xpos, [[-0.15, 0, 0.25], [0.15, 0, 0.25]]
  )
  with physics.reset_context():
    physics.bind(left.elbow).qpos = np.pi / 2
  # the forearm capsule's center swings from below the elbow to beside it
  forearm_geom = left.mjcf_model.find("geom", "forearm")
  np.testing.assert_allclose(physics.bind(forearm_geom).xpos, [-0.15 - 0.15, 0, -0.05], atol=1e-12)
  assert m.body("right_arm/forearm").id == 6


def test_legged_creatures_in_an_arena():
  arena, torsos, positions, colors = builders.make_arena(num_creatures=6, num_legs=8)
  assert len(arena.find_all("attachment_frame", exclude_attachments=True)) == 6
  assert len(arena.find_all("attachment_frame")) == 6 + 6 * 8
  creatures = [t.root for t in torsos]
  assert [c.model for c in creatures] == [
    "creature",
    "creature_1",
    "creature_2",
    "creature_3",
    "creature_4",
    "creature_5",
  ]
  assert torsos[2].full_identifier == "creature_2/torso"
  legs = creatures[0].find_all("attachment_frame")
  assert [f.full_identifier for f in legs] == ["creature/leg/"] + [
    f"creature/leg_{i}/" for i in range(1, 8)
  ]
  assert len(arena.find_all("actuator")) == 6 * 8 * 3

  physics = mjcf.Physics.from_mjcf_model(arena)
  assert physics.model.nbody == 1 + 6 * (1 + 8 * 3)
  assert physics.model.nq == 6 * (7 + 8 * 3) and physics.model.nu == 6 * 8 * 3
  # right after compiling, each torso sits at its spawn site with its own color
  np.testing.assert_allclose(physics.bind(torsos).xpos, positions, atol=1e-12)
  np.testing.assert_array_equal(physics.bind(torsos).rgba, np.float32(colors))
  assert physics.bind(torsos).xpos.shape == (6, 3)

  # falling freely (contacts are off), the creatures keep their shape: every torso drops alike
  nstep = 5
  physics.step(nstep)
  m, d = _oracle(arena, nstep)
  torso_ids = [m.geom(t.full_identifier).id for t in torsos]
  np.testing.assert_allclose(physics.bind(torsos).xpos, d.geom_xpos[torso_ids], atol=1e-9)
  drop = np.asarray(positions)[:, 2] - physics.bind(torsos).xpos[:, 2]
  assert drop.min() > 0 and np.ptp(drop) < 1e-9
  np.testing.assert_allclose(physics.data.qpos, d.qpos, atol=1e-9)
  feet = [c.find("sensor", "leg_3/foot_pos") for c in creatures]
  np.testing.assert_allclose(
    physics.bind(feet).sensordata.reshape(6, 3),
    d.sensordata.reshape(-1, 3)[[3 + 8 * k for k in range(6)]],
    atol=1e-9,
  )
