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
    self._geom = self._mjcf_root.worldbody.add('geom', name='geom', type=geom_type, size=size,
                                               **kwargs)
    sensors = self._mjcf_root.sensor
    self._position = sensors.add('framepos', name='position', objtype='geom',
                                 objname=self._geom)
    self._orientation = sensors.add('framequat', name='orientation', objtype='geom',
                                    objname=self._geom)
    self._linear_velocity = sensors.add('framelinvel', name='linear_velocity',
                                        objtype='geom', objname=self._geom)
    self._angular_velocity = sensors.add('frameangvel', name='angular_velocity',
                                         objtype='geom', objname=self._geom)

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
    return observable.MJCFFeature('sensordata', self._entity.position)

  @define.observable
  def orientation(self):
    return observable.MJCFFeature('sensordata', self._entity.orientation)

  @define.observable
  def linear_velocity(self):
    return observable.MJCFFeature('sensordata', self._entity.linear_velocity)

  @define.observable
  def angular_velocity(self):
    return observable.MJCFFeature('sensordata', self._entity.angular_velocity)
