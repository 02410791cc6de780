"""A prop made of one geom, with position/orientation/velocity sensors."""

import mjcf
from composer import define
from composer import entity
from composer.observation import observable


class Primitive(entity.Entity):
  """One geom (box, sphere, capsule, cylinder, ellipsoid) with frame sensors.

  `Primitive(geom_type, size, name=None, **geom_attributes)`.
  """

  def _build(self, geom_type, size, name=None, **kwargs):
    self._mjcf_root = mjcf.RootElement(model=name)
    self._geom = self._mjcf_root.worldbody.add(
      "geom", name="geom", type=geom_type, size=size, **kwargs
    )
    self._add_frame_sensors()

  def _add_frame_sensors(self):
    """The geom's position, orientation and velocity sensors (named as the observables)."""
    sensors = self._mjcf_root.sensor
    self._position, self._orientation, self._linear_velocity, self._angular_velocity = (
      sensors.add(kind, name=name, objtype="geom", objname=self._geom)
      for kind, name in (
        ("framepos", "position"),
        ("framequat", "orientation"),
        ("framelinvel", "linear_velocity"),
        ("frameangvel", "angular_velocity"),
      )
    )

  def _build_observables(self):
    return PrimitiveObservables(self)

  @property
  def geom(self):
    return self._geom

  @property
  def position(self):
    """The position sensor."""
    return self._position

  @property
  def orientation(self):
    """The orientation (quaternion) sensor."""
    return self._orientation

  @property
  def linear_velocity(self):
    return self._linear_velocity

  @property
  def angular_velocity(self):
    return self._angular_velocity

  @property
  def mjcf_model(self):
    return self._mjcf_root


class PrimitiveObservables(entity.Observables, entity.FreePropObservableMixin):
  """The sensor readings of a Primitive."""

  @define.observable
  def position(self):
    return observable.MJCFFeature("sensordata", self._entity.position)

  @define.observable
  def orientation(self):
    return observable.MJCFFeature("sensordata", self._entity.orientation)

  @define.observable
  def linear_velocity(self):
    return observable.MJCFFeature("sensordata", self._entity.linear_velocity)

  @define.observable
  def angular_velocity(self):
    return observable.MJCFFeature("sensordata", self._entity.angular_velocity)
