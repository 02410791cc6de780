"""Oracle tests for the contact sensor (engine/sensor.py, contact_sensor) against MuJoCo.

Both engines compile the same MJCF (our compiler, checked field by field against MuJoCo's),
run mj_forward from one shared state and must agree on the contacts and on every sensor
value: found, force, torque, dist, pos, normal, tangent, linvel, angvel; reductions none,
mindist, maxforce, netforce; num above and below the number of matches; geom, body, subtree
and site matching, on one side or both. Trajectories copy MuJoCo's state each step.
"""

import mujoco
import numpy as np
import pytest

import engine

# tight solver so that contact forces agree to round-off
_OPTION = '<option timestep="0.002" tolerance="1e-14" iterations="200" ls_iterations="100"/>'

# a box resting on the floor and a spinning box sliding on it
_BOXES = f"""
<mujoco>
  {_OPTION}
  <worldbody>
    <geom name="floor" type="plane" size="3 3 .1" friction="0.6"/>
    <body name="rest" pos="0 0 0.0995">
      <freejoint/>
      <geom name="rest" type="box" size="0.1 0.15 0.1" condim="6"/>
      <site name="restsite" type="box" size="0.12 0.2 0.2" pos="0.05 0 -0.1"/>
    </body>
    <body name="slide" pos="1 0.2 0.0497" euler="0 0 20">
      <freejoint/>
      <geom name="slide" type="box" size="0.2 0.1 0.05" mass="2"/>
      <site name="slidesite" type="sphere" size="0.25" pos="0.1 0 -0.05"/>
    </body>
  </worldbody>
  <sensor>
    <contact name="all_found" data="found"/>
    <contact name="rest_geom" geom1="rest" data="found force torque dist pos normal tangent"
             num="6"/>
    <contact name="floor_rest" geom1="floor" geom2="rest" data="force normal tangent" num="2"/>
    <contact name="rest_floor" body1="rest" body2="world" data="force torque normal" num="2"/>
    <contact name="to_slide" body2="slide" data="found force pos normal linvel angvel"
             num="8"/>
    <contact name="slide_vel" geom1="slide" data="tangent linvel angvel" num="3"/>
    <contact name="mindist" data="dist pos" reduce="mindist" num="3"/>
    <contact name="maxforce" data="found force dist" reduce="maxforce" num="5"/>
    <contact name="netrest" body1="rest" data="found force torque dist pos normal tangent"
             reduce="netforce"/>
    <contact name="netall" data="force torque pos" reduce="netforce"/>
    <contact name="restsite" site="restsite" data="found force pos" num="4"/>
    <contact name="slidesite" site="slidesite" geom2="floor" data="found force normal linvel"
             reduce="maxforce" num="2"/>
    <contact name="none" geom1="rest" geom2="slide" data="found force pos" num="2"/>
    <contact name="netnone" geom1="rest" geom2="slide"
             data="found force torque dist pos normal tangent" reduce="netforce"/>
    <contact name="cutoff" geom2="rest" data="force torque" num="4" cutoff="0.5"/>
  </sensor>
</mujoco>
"""

# four spheres in a pyramid, the top one on a hinge arm (subtrees)
_PILE = f"""
<mujoco>
  {_OPTION}
  <worldbody>
    <geom name="floor" type="plane" size="3 3 .1"/>
    <body name="s1" pos="0 0 0.0999">
      <freejoint/><geom name="s1" size="0.1" margin="0.03" gap="0.03"/>
    </body>
    <body name="s2" pos="0.2 0 0.0999">
      <freejoint/><geom name="s2" size="0.1" condim="4"/>
    </body>
    <body name="s3" pos="0.1 0.17 0.0999"><freejoint/><geom name="s3" size="0.1"/></body>
    <body name="arm" pos="0.1 0.057 0.6">
      <joint name="arm" type="slide" axis="0 0 1"/>
      <geom name="armrod" type="capsule" size="0.02" fromto="0 0 0 0 0 0.2" contype="0"
            conaffinity="0"/>
      <body name="top" pos="0 0 -0.3337">
        <joint type="ball"/>
        <geom name="top" size="0.1"/>
        <site name="topsite" size="0.12"/>
      </body>
    </body>
  </worldbody>
  <sensor>
    <contact name="arm_any" subtree1="arm" data="found force torque pos normal" num="4"/>
    <contact name="any_arm" subtree2="arm" data="found force normal tangent linvel" num="4"/>
    <contact name="arm_s1" subtree1="arm" body2="s1" data="force normal"/>
    <contact name="world_arm" subtree1="world" subtree2="arm" data="found normal" num="3"/>
    <contact name="s2_any" geom1="s2" data="found dist normal" reduce="mindist" num="6"/>
    <contact name="floor_pile" geom1="floor" data="found force angvel" reduce="maxforce"
             num="2"/>
    <contact name="topsite" site="topsite" data="found force torque pos normal tangent"
             num="3"/>
    <contact name="topnet" site="topsite" subtree2="world" data="found force torque pos"
             reduce="netforce"/>
    <contact name="pile" data="found force torque dist pos normal tangent linvel angvel"
             num="12"/>
    <contact name="pile_few" data="found dist" num="2"/>
    <contact name="pile_vel" subtree2="arm" data="normal linvel angvel" reduce="mindist"
             num="2"/>
  </sensor>
</mujoco>
"""

# two fingers on slide joints squeezing a free box against gravity
_GRIPPER = f"""
<mujoco>
  {_OPTION.replace("<option ", '<option cone="elliptic" ')}
  <worldbody>
    <geom name="floor" type="plane" size="3 3 .1"/>
    <body name="hand" pos="0 0 0.3">
      <joint name="lift" type="slide" axis="0 0 1" damping="5"/>
      <geom name="palm" type="box" size="0.15 0.05 0.02" pos="0 0 0.12" contype="0"
            conaffinity="0"/>
      <body name="left" pos="-0.0799 0 0">
        <joint name="left" type="slide" axis="1 0 0" damping="2"/>
        <geom name="left" type="box" size="0.03 0.04 0.1" condim="6"/>
      </body>
      <body name="right" pos="0.0799 0 0">
        <joint name="right" type="slide" axis="-1 0 0" damping="2"/>
        <geom name="right" type="box" size="0.03 0.04 0.1" condim="6"/>
      </body>
    </body>
    <body name="object" pos="0 0 0.3">
      <freejoint/>
      <geom name="object" type="box" size="0.05 0.05 0.05" mass="0.2" friction="1.5"/>
      <site name="objsite" type="box" size="0.06 0.06 0.06"/>
    </body>
  </worldbody>
  <actuator>
    <motor joint="left" gear="1"/>
    <motor joint="right" gear="1"/>
    <motor joint="lift" gear="1"/>
  </actuator>
  <sensor>
    <contact name="hand_obj" subtree1="hand" geom2="object" data="found force torque pos normal"
             num="8"/>
    <contact name="obj_hand" geom1="object" subtree2="hand" data="found force normal tangent"
             num="8"/>
    <contact name="left_obj" body1="left" body2="object" data="force torque linvel angvel"
             reduce="maxforce" num="2"/>
    <contact name="right_any" body1="right" data="found dist pos" reduce="mindist" num="10"/>
    <contact name="obj_net" body1="object" data="found force torque pos" reduce="netforce"/>
    <contact name="hand_net" subtree1="hand" data="found force torque pos normal tangent"
             reduce="netforce"/>
    <contact name="objsite" site="objsite" data="found force pos normal" reduce="maxforce"
             num="3"/>
    <contact name="all" data="found force torque dist pos normal tangent linvel angvel"
             num="3"/>
    <contact name="slip" body1="object" data="found pos linvel" num="8"/>
  </sensor>
</mujoco>
"""

_SCENES = {"boxes": _BOXES, "pile": _PILE, "gripper": _GRIPPER}


def _load(xml):
  mjm = mujoco.MjModel.from_xml_string(xml)
  mjd = mujoco.MjData(mjm)
  m = engine.MjModel.from_xml_string(xml)
  d = engine.MjData(m)
  return mjm, mjd, m, d


def _set_state(rng, mjm, mjd, scene):
  """A state with contacts in motion: random velocities (small, so contacts persist)."""
  mujoco.mj_resetData(mjm, mjd)
  mjd.qvel[:] = 0.3 * rng.standard_normal(mjm.nv)
  if scene == "boxes":
    # the sliding box slides and spins
    mjd.qvel[6:12] = [1.5, -0.4, 0.0, 0.0, 0.0, 2.0]
  if scene == "gripper":
    mjd.ctrl[:] = [3.0, 3.0, 2.0]


def _copy_state(mjd, d):
  d.time = mjd.time
  for name in ("qpos", "qvel", "act", "ctrl", "qacc_warmstart"):
    getattr(d, name)[...] = getattr(mjd, name)


def _assert_contacts_match(mjd, d):
  assert d.ncon == mjd.ncon
  np.testing.assert_array_equal(d.contact.geom, mjd.contact.geom)
  np.testing.assert_allclose(d.contact.pos, mjd.contact.pos, atol=1e-9)
  np.testing.assert_allclose(d.contact.frame, mjd.contact.frame, atol=1e-9)


def _assert_sensors_match(mjm, mjd, d, atol):
  for i in range(mjm.nsensor):
    adr, dim = mjm.sensor_adr[i], mjm.sensor_dim[i]
    np.testing.assert_allclose(
      d.sensordata[adr : adr + dim],
      mjd.sensordata[adr : adr + dim],
      rtol=0,
      atol=atol,
      err_msg=f"sensor {mjm.sensor(i).name}",
    )


_FIELDS = (
  "sensor_type",
  "sensor_datatype",
  "sensor_needstage",
  "sensor_objtype",
  "sensor_objid",
  "sensor_reftype",
  "sensor_refid",
  "sensor_intprm",
  "sensor_dim",
  "sensor_adr",
  "sensor_cutoff",
)


@pytest.mark.parametrize("scene", sorted(_SCENES))
def test_compiled_fields(scene):
  mjm, _, m, _ = _load(_SCENES[scene])
  for name in _FIELDS:
    np.testing.assert_array_equal(getattr(m, name), getattr(mjm, name), err_msg=name)
  assert m.nsensordata == mjm.nsensordata


@pytest.mark.parametrize("scene", sorted(_SCENES))
def test_forward_matches(scene):
  mjm, mjd, m, d = _load(_SCENES[scene])
  rng = np.random.default_rng(0)
  _set_state(rng, mjm, mjd, scene)
  mujoco.mj_forward(mjm, mjd)
  _copy_state(mjd, d)
  engine.mj_forward(m, d)
  assert mjd.ncon > 0
  _assert_contacts_match(mjd, d)
  _assert_sensors_match(mjm, mjd, d, 1e-9)


@pytest.mark.parametrize("scene", sorted(_SCENES))
def test_trajectory_matches(scene):
  """60 steps of MuJoCo; after each, our mj_forward from its state gives its sensors."""
  mjm, mjd, m, d = _load(_SCENES[scene])
  rng = np.random.default_rng(1)
  _set_state(rng, mjm, mjd, scene)
  for _ in range(60):
    mujoco.mj_step(mjm, mjd)
    _copy_state(mjd, d)
    engine.mj_forward(m, d)
    mujoco.mj_forward(mjm, mjd)
    _assert_contacts_match(mjd, d)
    _assert_sensors_match(mjm, mjd, d, 1e-9)


@pytest.mark.parametrize("scene", sorted(_SCENES))
def test_each_stage_writes_its_contact_sensors(scene):
  """mj_sensorPos, mj_sensorVel and mj_sensorAcc each compute exactly the contact sensors of
  their stage (geometry; velocities; forces and force reductions)."""
  mjm, mjd, m, d = _load(_SCENES[scene])
  _set_state(np.random.default_rng(2), mjm, mjd, scene)
  mujoco.mj_step(mjm, mjd, 20)
  mujoco.mj_forward(mjm, mjd)
  _copy_state(mjd, d)
  engine.mj_forward(m, d)
  stages = mjm.sensor_needstage
  assert set(stages) == {1, 2, 3}
  for stage, run in ((1, engine.mj_sensorPos), (2, engine.mj_sensorVel), (3, engine.mj_sensorAcc)):
    d.sensordata[:] = np.nan
    run(m, d)
    for i in range(mjm.nsensor):
      adr, dim = mjm.sensor_adr[i], mjm.sensor_dim[i]
      got = d.sensordata[adr : adr + dim]
      if stages[i] == stage:
        np.testing.assert_allclose(got, mjd.sensordata[adr : adr + dim], rtol=0, atol=1e-9)
      else:
        assert np.all(np.isnan(got))


def _sensor_xml(sensor):
  return f"""
  <mujoco>
    <worldbody>
      <geom name="floor" type="plane" size="1 1 1"/>
      <body name="b"><freejoint/><geom name="g" size="0.1"/><site name="s"/></body>
    </worldbody>
    <sensor>{sensor}</sensor>
  </mujoco>"""


@pytest.mark.parametrize(
  "sensor, attribute",
  [
    ('<contact data="linvel found"/>', "data"),
    ('<contact num="0"/>', "num"),
    ('<contact data="force linvel" reduce="netforce"/>', "reduce"),
    ('<contact geom1="g" body1="b"/>', "body1"),
    ('<contact site="s" subtree1="b"/>', "site"),
    ('<contact geom2="g" body2="b"/>', "body2"),
    ('<contact reduce="max"/>', "reduce"),
  ],
)
def test_invalid_contact_sensors_are_rejected_like_mujoco(sensor, attribute):
  xml = _sensor_xml(sensor)
  with pytest.raises(ValueError):
    mujoco.MjModel.from_xml_string(xml)
  with pytest.raises(engine.Error, match=f"attribute '{attribute}'"):
    engine.MjModel.from_xml_string(xml)


def test_tactile_is_unsupported():
  """The tactile sensor needs MuJoCo's signed-distance functions of the touching geoms (and
  mesh octrees), which the engine does not have: rejected by name, not silently zero."""
  xml = _sensor_xml('<tactile geom="g" mesh="pad"/>').replace(
    "<worldbody>", '<asset><mesh name="pad" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset><worldbody>'
  )
  assert mujoco.MjModel.from_xml_string(xml).sensor_type[0] == mujoco.mjtSensor.mjSENS_TACTILE
  with pytest.raises(engine.UnsupportedError, match="tactile"):
    engine.MjModel.from_xml_string(xml)
