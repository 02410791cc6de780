"""`walkers.rescale` and `walkers.scaled_actuators` against dm_control 1.0.50's: the same edits
of the same model on both stacks give the same attributes and the same compiled model."""

import numpy as np
import pytest

from tests.locomotion import twin_walkers as tw


def _figure(ns):
  """A small humanoid-like entity of stack `ns`: a 'root' body under a pelvis frame, limbs of
  capsules given by fromto or pos and size, sites, a camera, an explicit inertial, geoms with
  explicit mass and density, and sensors."""
  model = ns.mjcf.RootElement(model="figure")
  holder = model.worldbody.add("body", name="holder", pos=[0, 0, 0.2])
  root = holder.add("body", name="root", pos=[0, 0, 1.0])
  root.add("geom", name="torso", type="capsule", fromto=[0, -0.1, 0, 0, 0.1, 0], size=[0.08])
  root.add("camera", name="eye", pos=[0.1, 0, 0.2])
  root.add("joint", name="waist", type="hinge", axis=[0, 1, 0])
  thigh = root.add("body", name="thigh", pos=[0, 0.05, -0.1])
  thigh.add("joint", name="hip", type="ball")
  thigh.add("geom", name="thigh", type="capsule", fromto=[0, 0, 0, 0.05, 0, -0.4], size=[0.06])
  shin = thigh.add("body", name="shin", pos=[0.05, 0, -0.45])
  shin.add("joint", name="knee", type="hinge", axis=[0, 1, 0])
  shin.add("geom", name="shin", type="capsule", pos=[0, 0, -0.15], size=[0.05, 0.15], density=800)
  shin.add("inertial", pos=[0, 0, -0.1], mass=2.5, diaginertia=[0.02, 0.02, 0.005])
  foot = shin.add("body", name="foot", pos=[0, 0, -0.35])
  foot.add("geom", name="foot", type="box", size=[0.1, 0.05, 0.02], pos=[0.05, 0, 0], mass=1.2)
  foot.add("site", name="sole", type="box", size=[0.1, 0.05, 0.01], pos=[0.05, 0, -0.02])
  model.sensor.add("touch", name="sole", site="sole")

  class Figure(ns.composer.Entity):
    def _build(self):
      self._mjcf_root = model

    mjcf_model = property(lambda self: self._mjcf_root)
    root_body = property(lambda self: root)

  return Figure()


_SCALED = ("pos", "size", "fromto", "mass", "density")


def _attributes(model):
  """{element name: {attribute: value}} of the attributes rescaling may change."""
  values = {}
  for element in (
    model.find_all("body")
    + model.find_all("geom")
    + model.find_all("site")
    + model.find_all("camera")
  ):
    values[element.name] = {name: getattr(element, name, None) for name in _SCALED}
  for body in model.find_all("body"):
    if body.inertial is not None:
      values[body.name + "/inertial"] = {"mass": body.inertial.mass}
  return values


def _compiled(model, ns):
  physics = ns.mjcf.Physics.from_mjcf_model(model)
  m = physics.model
  return {
    name: np.array(getattr(m, name))
    for name in (
      "body_pos",
      "body_mass",
      "body_inertia",
      "body_ipos",
      "body_subtreemass",
      "geom_size",
      "geom_pos",
      "site_pos",
      "site_size",
      "cam_pos",
    )
  }


def _rescaled(ours, edit):
  ns = tw.namespace(ours)
  figure = _figure(ns)
  edit(ns, figure)
  return _attributes(figure.mjcf_model), _compiled(figure.mjcf_model, ns)


def _assert_same_rescaling(edit):
  (attributes, compiled), (their_attributes, their_compiled) = (
    _rescaled(ours, edit) for ours in (True, False)
  )
  assert attributes.keys() == their_attributes.keys()
  for name, values in their_attributes.items():
    for key, value in values.items():
      if value is None:
        assert attributes[name][key] is None, (name, key)
      else:
        np.testing.assert_allclose(
          attributes[name][key], value, rtol=1e-15, err_msg=f"{name}.{key}"
        )
  for name, value in their_compiled.items():
    np.testing.assert_allclose(compiled[name], value, rtol=1e-12, atol=1e-15, err_msg=name)
  return compiled


def test_rescale_subtree_of_a_whole_model_matches_dm_control():
  """Positions by one factor and sizes by the other, sensors untouched; with equal factors
  every site moves by that factor about the origin."""
  position_factor = 0.5
  compiled = _assert_same_rescaling(
    lambda ns, figure: ns.rescale.rescale_subtree(figure.mjcf_model, position_factor, 0.7)
  )
  original = _compiled(_figure(tw.namespace(True)).mjcf_model, tw.namespace(True))
  np.testing.assert_allclose(
    compiled["body_pos"], position_factor * original["body_pos"], rtol=1e-15
  )
  np.testing.assert_allclose(compiled["site_size"], 0.7 * original["site_size"], rtol=1e-15)

  ns = tw.namespace(True)
  figure = _figure(ns)
  before = ns.mjcf.Physics.from_mjcf_model(figure.mjcf_model).data.site_xpos.copy()
  ns.rescale.rescale_subtree(figure.mjcf_model, 1.5, 1.5)
  after = ns.mjcf.Physics.from_mjcf_model(figure.mjcf_model).data.site_xpos
  np.testing.assert_allclose(after, 1.5 * before, rtol=1e-14)


@pytest.mark.parametrize(
  "position_factor,size_factor,mass", [(1.2, None, None), (1.2, 0.8, 70.0), (0.9, 1.1, 12.5)]
)
def test_rescale_humanoid_matches_dm_control(position_factor, size_factor, mass):
  """The subtree holding 'root' (so the root's own pos too) is rescaled; with a mass, the
  masses below the root are scaled to make the root's subtree weigh it (the root body has
  no inertial of its own here, so the total is exact)."""
  compiled = _assert_same_rescaling(
    lambda ns, figure: ns.rescale.rescale_humanoid(figure, position_factor, size_factor, mass)
  )
  root = 2  # world, holder, root
  if mass is not None:
    np.testing.assert_allclose(compiled["body_subtreemass"][root], mass, rtol=1e-12)
  np.testing.assert_allclose(compiled["body_pos"][root], [0, 0, position_factor], rtol=1e-15)
  np.testing.assert_allclose(compiled["body_pos"][1], [0, 0, 0.2], rtol=1e-15)


def test_rescale_humanoid_needs_a_root_body():
  ns = tw.namespace(True)
  walker = tw.critter_class(ns)()
  with pytest.raises(ValueError, match="no body named 'root'"):
    ns.rescale.rescale_humanoid(walker, 1.1)


# ---- scaled actuators ----


def _actuated(ns):
  model = ns.mjcf.RootElement(model="actuated")
  body = model.worldbody.add("body", name="arm")
  hinge = body.add("joint", name="hinge", type="hinge", axis=[0, 1, 0], range=[-1, 1], limited=True)
  body.add("geom", type="capsule", fromto=[0, 0, 0, 0.3, 0, 0], size=[0.02])
  slider_body = body.add("body", name="slider", pos=[0.3, 0, 0])
  slider = slider_body.add("joint", name="slide", type="slide", axis=[1, 0, 0])
  slider_body.add("geom", type="sphere", size=[0.03])
  site = slider_body.add("site", name="tip", pos=[0.03, 0, 0])
  tendon = model.tendon.add("fixed", name="coupled")
  tendon.add("joint", joint=hinge, coef=1.0)
  tendon.add("joint", joint=slider, coef=-0.5)
  return model, hinge, slider, tendon, site


def _add_scaled_actuators(ns):
  model, hinge, slider, _, site = _actuated(ns)
  add_position = ns.scaled_actuators.add_position_actuator
  add_velocity = ns.scaled_actuators.add_velocity_actuator
  added = [
    add_position(hinge, qposrange=(-0.8, 0.6)),
    add_position(
      slider,
      qposrange=[0.0, 0.2],
      ctrlrange=(0, 2),
      kp=50,
      name="slide_pos",
      forcerange=[-30, 30],
      forcelimited=True,
    ),
    add_velocity(hinge, qvelrange=(-2, 3), kv=4, name="hinge_vel"),
    add_velocity(site, qvelrange=(-1, 1), ctrlrange=(-0.5, 0.5), kv=2, gear=[1, 0, 0, 0, 0, 0]),
  ]
  return model, added


def test_scaled_actuators_match_dm_control():
  """On joints and sites: attributes of each added <general> actuator and the compiled
  gains, biases and ranges."""
  results = {}
  for ours in (True, False):
    ns = tw.namespace(ours)
    model, added = _add_scaled_actuators(ns)
    for actuator in added:
      assert actuator.root is model and actuator.tag == "general"
    attributes = [
      {
        key: getattr(a, key)
        for key in (
          "name",
          "biastype",
          "gainprm",
          "biasprm",
          "ctrllimited",
          "ctrlrange",
          "forcerange",
        )
      }
      for a in added
    ]
    targets = [
      [
        getattr(a, kind).name if getattr(a, kind) is not None else None
        for kind in ("joint", "tendon", "site")
      ]
      for a in added
    ]
    m = ns.mjcf.Physics.from_mjcf_model(model).model
    compiled = [
      np.array(getattr(m, name))
      for name in (
        "actuator_gainprm",
        "actuator_biasprm",
        "actuator_biastype",
        "actuator_ctrlrange",
        "actuator_forcerange",
        "actuator_trntype",
        "actuator_trnid",
        "actuator_gear",
      )
    ]
    results[ours] = attributes, targets, compiled
  mine, theirs = results[True], results[False]
  assert mine[1] == theirs[1]
  for got, want in zip(mine[0], theirs[0]):
    assert got.keys() == want.keys()
    for key, value in want.items():
      if isinstance(value, str) or value is None:
        assert got[key] == value, key
      else:
        np.testing.assert_array_equal(got[key], value, err_msg=key)
  for got, want in zip(mine[2], theirs[2]):
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fraction", [0.0, 0.25, 1.0])
def test_position_actuator_holds_the_mapped_position(fraction):
  """At control c = lo + f (hi - lo) of the control range, the actuator's force vanishes at
  the position q = lo + f (hi - lo) of the target range and pushes towards it elsewhere."""
  ns = tw.namespace(True)
  model, hinge, *_ = _actuated(ns)
  qposrange, ctrlrange = (-0.8, 0.6), (0.0, 2.0)
  actuator = ns.scaled_actuators.add_position_actuator(hinge, qposrange, ctrlrange, kp=7.0)
  physics = ns.mjcf.Physics.from_mjcf_model(model)
  target = qposrange[0] + fraction * (qposrange[1] - qposrange[0])
  physics.bind(actuator).ctrl = ctrlrange[0] + fraction * (ctrlrange[1] - ctrlrange[0])
  for offset in (0.0, 0.1):
    physics.bind(hinge).qpos = target + offset
    physics.forward()
    np.testing.assert_allclose(physics.bind(actuator).force, -7.0 * offset, atol=1e-12)


def test_position_actuator_on_a_tendon():
  """A <fixed> tendon is driven through its length (dm_control looks for a 'tendon' tag,
  which no tendon element has, so it rejects tendons)."""
  ns = tw.namespace(True)
  model, hinge, slider, tendon, _ = _actuated(ns)
  actuator = ns.scaled_actuators.add_position_actuator(tendon, (-0.3, 0.3), (-2, 2), kp=5.0)
  assert actuator.tendon is tendon and actuator.joint is None
  physics = ns.mjcf.Physics.from_mjcf_model(model)
  assert physics.bind(actuator).trntype == 3  # mjTRN_TENDON
  physics.bind(actuator).ctrl = 1.0  # 3/4 of the way: length 0.15
  physics.bind([hinge, slider]).qpos = [0.25, 0.3]  # length 0.25 - 0.5 * 0.3 = 0.1
  physics.forward()
  np.testing.assert_allclose(physics.bind(tendon).length, 0.1, atol=1e-15)
  np.testing.assert_allclose(physics.bind(actuator).force, 5.0 * 0.05, atol=1e-12)


def test_velocity_actuator_holds_the_mapped_velocity():
  ns = tw.namespace(True)
  model, _, slider, *_ = _actuated(ns)
  actuator = ns.scaled_actuators.add_velocity_actuator(slider, (-2.0, 3.0), kv=4.0)
  physics = ns.mjcf.Physics.from_mjcf_model(model)
  physics.bind(actuator).ctrl = 0.2  # 60% of [-1, 1]: velocity 1
  physics.bind(slider).qvel = 1.5
  physics.forward()
  np.testing.assert_allclose(physics.bind(actuator).force, -4.0 * 0.5, atol=1e-12)


def test_scaled_actuator_errors():
  """dm_control's TypeErrors, with the same messages, and ValueErrors for bad ranges."""
  messages = {}
  for ours in (True, False):
    ns = tw.namespace(ours)
    _, hinge, *_ = _actuated(ns)
    geom = hinge.parent.geom[0]
    found = []
    for target, kwargs in ((hinge, dict(biastype="none", joint=hinge)), (geom, {})):
      with pytest.raises(TypeError) as error:
        ns.scaled_actuators.add_position_actuator(target, (-1, 1), **kwargs)
      found.append(str(error.value).split(": got")[0])
    messages[ours] = found
  assert messages[True] == messages[False]
  assert messages[True][0] == "Received invalid keyword argument(s): ['biastype', 'joint']"

  ns = tw.namespace(True)
  _, hinge, *_ = _actuated(ns)
  with pytest.raises(ValueError, match="`qposrange` must be two numbers"):
    ns.scaled_actuators.add_position_actuator(hinge, (-1, 0, 1))
  with pytest.raises(ValueError, match="`ctrlrange` must have two different bounds"):
    ns.scaled_actuators.add_velocity_actuator(hinge, (-1, 1), ctrlrange=(0.5, 0.5))
  assert not hinge.root.actuator.all_children()
