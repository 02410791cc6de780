"""Props built from a trajectory's prop records (a box or a sphere of the recorded size)."""

import numpy as np

import composer
import mjcf
from composer import define
from composer.observation import observable
from suite.locomotion.mocap import mocap_types

_LIGHT_RGBA, _LIGHT_MASS = np.array([0.77, 0.64, 0.21, 1.0]), 3.0
_HEAVY_RGBA, _HEAVY_MASS = np.array([0.77, 0.34, 0.21, 1.0]), 10.0

_PROP_SHAPE = {mocap_types.Prop.SPHERE: "sphere", mocap_types.Prop.BOX: "box"}


def _default_prop_rgba(prop_mass):
  """From yellow (3 kg and lighter) to orange (10 kg and heavier)."""
  heaviness = np.clip((prop_mass - _LIGHT_MASS) / (_HEAVY_MASS - _LIGHT_MASS), 0.0, 1.0)
  return (1 - heaviness) * _LIGHT_RGBA + heaviness * _HEAVY_RGBA


class Prop(composer.Entity):
  """A free prop of one geom, with position and orientation sensors.

  With `priority_friction`, its contacts take its friction (priority 1) with torsional and
  rolling friction scaled to its size (condim 6).
  """

  def _build(self, prop_proto, rgba=None, priority_friction=False):
    if prop_proto.shape not in _PROP_SHAPE:
      raise ValueError(
        f"prop {prop_proto.name!r} has shape {prop_proto.shape}; a prop is a "
        "sphere (1) or a box (2)"
      )
    rgba = rgba or _default_prop_rgba(prop_proto.mass)
    self._mjcf_root = mjcf.RootElement(model=str(prop_proto.name))
    self._geom = self._mjcf_root.worldbody.add(
      "geom",
      type=_PROP_SHAPE[prop_proto.shape],
      size=prop_proto.size,
      mass=prop_proto.mass,
      rgba=rgba,
    )
    if priority_friction:
      self._geom.priority = 1
      self._geom.condim = 6
      self._geom.friction = [0.7, prop_proto.size[0] / 4, prop_proto.size[0] / 2]
    self._body_geom_ids = ()
    self._position = self._mjcf_root.sensor.add(
      "framepos", name="position", objtype="geom", objname=self._geom
    )
    self._orientation = self._mjcf_root.sensor.add(
      "framequat", name="orientation", objtype="geom", objname=self._geom
    )

  def _build_observables(self):
    return Observables(self)

  @property
  def mjcf_model(self):
    return self._mjcf_root

  def update_with_new_prop(self, prop):
    """Takes the size, mass and colour of another prop's geom."""
    self._geom.size = prop.geom.size
    self._geom.mass = prop.geom.mass
    self._geom.rgba = prop.geom.rgba

  @property
  def geom(self):
    return self._geom

  def after_compile(self, physics, random_state):
    del random_state  # unused
    self._body_geom_ids = (physics.bind(self._geom).element_id,)

  @property
  def body_geom_ids(self):
    return self._body_geom_ids

  @property
  def position(self):
    """The position sensor."""
    return self._position

  @property
  def orientation(self):
    """The orientation sensor."""
    return self._orientation


class Observables(composer.Observables):
  """The prop's position and orientation (its sensors)."""

  @define.observable
  def position(self):
    return observable.MJCFFeature("sensordata", self._entity.position)

  @define.observable
  def orientation(self):
    return observable.MJCFFeature("sensordata", self._entity.orientation)
