"""Entities, arenas and entity observables against dm_control's."""

import numpy as np
import pytest

import composer
import mjcf
from composer.observation import observable
from tests.composer import twin_tasks


def _twins(ours):
  ns = twin_tasks._namespace(ours)

  class Block(ns.composer.Entity):
    def _build(self, name, free=True):
      self._model = ns.mjcf.RootElement(model=name)
      body = self._model.worldbody.add("body", name="body")
      body.add("geom", name="geom", type="box", size=[0.1, 0.2, 0.3])
      self.hinge = body.add("joint", name="hinge", type="hinge", axis=[0, 0, 1])
      self.mount = body.add("site", name="mount", pos=[0, 0, 0.3])

    @property
    def mjcf_model(self):
      return self._model

  arena = ns.composer.Arena()
  free = Block("free")
  fixed = Block("fixed")
  nested = Block("nested")
  arena.add_free_entity(free)
  arena.attach_offset(fixed, [1.0, 0.0, 0.5]) if ours else arena.attach(fixed).set_attributes(
    pos=[1.0, 0.0, 0.5]
  )
  fixed.attach(nested, fixed.mount)
  physics = ns.mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  return ns, arena, (free, fixed, nested), physics


def test_tree_pose_and_velocity_match_dm_control():
  results = {}
  for ours in (False, True):
    ns, arena, (free, fixed, nested), physics = _twins(ours)
    out = [
      [e.mjcf_model.model for e in arena.iter_entities()],
      [e.mjcf_model.model for e in arena.iter_entities(exclude_self=True)],
    ]
    assert nested.parent is fixed and fixed.parent is arena and arena.parent is None
    free.set_pose(physics, [0.1, 0.2, 0.3], [1, 1, 0, 0])
    free.set_velocity(physics, [1.0, 2.0, 3.0], [0.1, 0.2, 0.3])
    free.shift_pose(physics, [0.5, 0, 0], [np.cos(0.3), 0, np.sin(0.3), 0], rotate_velocity=True)
    fixed.set_pose(physics, [2.0, 0, 0.1], [0, 0, 0, 2])
    fixed.shift_pose(physics, [0, 1.0, 0], [np.cos(0.2), 0, 0, np.sin(0.2)])
    physics.forward()
    out += [
      np.concatenate(free.get_pose(physics)),
      np.concatenate(free.get_velocity(physics)),
      np.concatenate(fixed.get_pose(physics)),
      np.concatenate(nested.get_pose(physics)),
      free.global_vector_to_local_frame(physics, [[1.0, 2.0, 3.0], [0, 0, 1]]),
      fixed.global_vector_to_local_frame(physics, [1.0, 2.0]),
      nested.global_xmat_to_local_frame(physics, physics.bind(free.root_body).xmat),
      physics.data.xpos.copy(),
    ]
    with pytest.raises(ValueError, match="non-free"):
      fixed.get_velocity(physics)
    with pytest.raises(ValueError, match="final dimension 2 or 3"):
      free.global_vector_to_local_frame(physics, [1.0])
    if ours:  # dm_control fails with an AttributeError inside mjcf here
      with pytest.raises(RuntimeError, match="No attachment frame"):
        arena.get_pose(physics)
    nested.detach()
    out.append([e.mjcf_model.model for e in arena.iter_entities()])
    assert nested.parent is None
    with pytest.raises(RuntimeError, match="not attached"):
      nested.detach()
    results[ours] = out
  for mine, theirs in zip(results[True], results[False]):
    if isinstance(theirs, list):
      assert mine == theirs
    else:
      np.testing.assert_allclose(mine, theirs, rtol=1e-12, atol=1e-12)


def test_arena_compiles_like_dm_control():
  from dm_control import composer as dm_composer
  from dm_control import mjcf as dm_mjcf

  ours = mjcf.Physics.from_mjcf_model(composer.Arena(name="court").mjcf_model)
  theirs = dm_mjcf.Physics.from_mjcf_model(dm_composer.Arena(name="court").mjcf_model)
  for field in ("timestep", "cone", "noslip_iterations", "noslip_tolerance"):
    assert getattr(ours.model.opt, field) == getattr(theirs.model.opt, field), field
  assert ours.model.vis.map.znear == theirs.model.vis.map.znear
  np.testing.assert_allclose(ours.model.vis.headlight.diffuse, theirs.model.vis.headlight.diffuse)
  assert ours.model.name == "court"


class _Legs(composer.Observables):
  @composer.observable
  def hinge_angle(self):
    return observable.MJCFFeature("qpos", self._entity.hinges)

  @composer.observable
  def first_hinge(self):
    return observable.MJCFFeature("qpos", self._entity.hinges)[0]


class _Walker(composer.Entity):
  def _build(self):
    self._model = mjcf.RootElement(model="walker")
    self.hinges = []
    for i in range(2):
      body = self._model.worldbody.add("body", name=f"b{i}")
      body.add("geom", type="sphere", size=[0.1])
      self.hinges.append(body.add("joint", name=f"h{i}", type="hinge"))
    self.build_count = getattr(self, "build_count", 0) + 1

  def _build_observables(self):
    return _Legs(self)

  @composer.cached_property
  def torso(self):
    self.lookups = getattr(self, "lookups", 0) + 1
    return self._model.find("body", "b0")

  @property
  def mjcf_model(self):
    return self._model


def test_observables_collection():
  walker = _Walker(observable_options={"hinge_angle": {"buffer_size": 3, "enabled": True}})
  obs = walker.observables
  assert list(obs.as_dict()) == ["first_hinge", "hinge_angle"]  # a root model has no prefix
  arena = composer.Arena()
  arena.attach(walker)
  assert obs.hinge_angle.buffer_size == 3 and obs.hinge_angle.enabled
  assert not obs.first_hinge.enabled
  assert list(obs.as_dict()) == ["walker/first_hinge", "walker/hinge_angle"]
  assert list(obs.as_dict(fully_qualified=False)) == ["first_hinge", "hinge_angle"]
  assert obs.dict_keys.hinge_angle == "walker/hinge_angle"
  obs.enable_all()
  assert obs.first_hinge.enabled
  obs.disable_all()
  assert not obs.hinge_angle.enabled
  obs.set_options({"delay": 2})
  assert obs.hinge_angle.delay == obs.first_hinge.delay == 2
  with pytest.raises(KeyError, match="No observable"):
    obs.set_options({"wings": {"enabled": True}})
  extra = observable.Generic(lambda physics: physics.time())
  obs.add_observable("clock", extra)
  assert obs.clock is extra and extra.enabled
  assert obs.get_observable("walker/clock", name_fully_qualified=True) is extra
  assert walker.torso is walker.torso and walker.lookups == 1

  physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  physics.bind(walker.hinges).qpos = [0.3, -0.2]
  np.testing.assert_allclose(obs.hinge_angle(physics), [0.3, -0.2])
  np.testing.assert_allclose(obs.first_hinge(physics), 0.3)
  assert observable.MujocoFeature("qpos", ["walker/h1"])(physics) == -0.2
  with pytest.raises(NotImplementedError, match="already-sliced"):
    obs.first_hinge[0]
  with pytest.raises(ValueError, match="expected an `mjcf.Element`"):
    observable.MJCFFeature("qpos", "h0")


def test_camera_observables(opengl):
  """MJCFCamera / MujocoCamera render through physics.render with dm_control's specs."""
  from dm_control.composer.observation.observable import mjcf as dm_mjcf_obs

  model = mjcf.RootElement(model="scene")
  model.worldbody.add("light", pos=[0, 0, 2])
  model.worldbody.add("geom", type="sphere", size=[0.2], rgba=[1, 0, 0, 1])
  camera = model.worldbody.add("camera", name="eye", pos=[0, -1, 0], euler=[90, 0, 0])
  physics = mjcf.Physics.from_mjcf_model(model)
  rgb = observable.MJCFCamera(camera, height=24, width=32)
  depth = observable.MJCFCamera(camera, height=24, width=32, depth=True)
  assert rgb.array_spec.shape == (24, 32, 3) and rgb.array_spec.dtype == np.uint8
  assert depth.array_spec.dtype == np.float32 and depth.array_spec.maximum == np.inf
  image = rgb(physics)
  assert image.shape == (24, 32, 3) and image.dtype == np.uint8
  np.testing.assert_array_equal(image, physics.render(24, 32, "eye"))
  assert image[12, 16, 0] > image[12, 16, 1]  # the red sphere is in view
  assert depth(physics).shape == (24, 32, 1)
  by_name = observable.MujocoCamera("eye", height=24, width=32)
  np.testing.assert_array_equal(by_name(physics), image)
  with pytest.raises(ValueError, match="cannot both be `True`"):
    observable.MJCFCamera(camera, depth=True, segmentation=True)
  with pytest.raises(ValueError, match="expected a <camera>"):
    observable.MJCFCamera(model.worldbody)
  from dm_control import mjcf as dm_mjcf

  dm_camera = dm_mjcf.RootElement().worldbody.add("camera", name="c")
  segmentation = observable.MJCFCamera(camera, segmentation=True)
  assert segmentation.array_spec == dm_mjcf_obs.MJCFCamera(dm_camera, segmentation=True).array_spec


def test_floor_arena_compiles_like_dm_control():
  from dm_control import mjcf as dm_mjcf
  from dm_control.locomotion.arenas import floors

  from composer import arenas

  ours = mjcf.Physics.from_mjcf_model(arenas.Floor(size=(3, 4)).mjcf_model)
  theirs = dm_mjcf.Physics.from_mjcf_model(floors.Floor(size=(3, 4)).mjcf_model)
  for field in (
    "geom_size",
    "geom_matid",
    "mat_texrepeat",
    "mat_reflectance",
    "tex_width",
    "tex_height",
    "cam_fovy",
    "cam_pos",
  ):
    np.testing.assert_allclose(
      getattr(ours.model, field), getattr(theirs.model, field), rtol=1e-6, err_msg=field
    )
  np.testing.assert_array_equal(ours.model.tex_data, theirs.model.tex_data)
  with pytest.raises(NotImplementedError, match="only 'default'"):
    arenas.Floor(aesthetic="outdoor_natural")
