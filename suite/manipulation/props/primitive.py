"""Props made of one MuJoCo geom, with a touch sensor around it and frame sensors on it."""

import itertools

import numpy as np

import mjcf
from composer import constants
from composer import define
from composer.observation import observable
from composer.props import primitive

_DEFAULT_HALF_LENGTHS = [0.05, 0.1, 0.15]


class Primitive(primitive.Primitive):
  """One geom named `body_geom` of `geom_type` and `size` (and `mass`, if given).

  A site 5% larger than the geom carries a touch sensor, so the prop senses anything pressing
  on it; the geom's position, orientation and velocities are sensed too (composer's Primitive).
  """

  def _build(self, geom_type, size, mass=None, name=None):
    size = np.reshape(np.asarray(size), -1)
    self._mjcf_root = mjcf.RootElement(model=name)
    worldbody = self._mjcf_root.worldbody
    self._geom = worldbody.add("geom", name="body_geom", type=geom_type, size=size, mass=mass)
    touch_site = worldbody.add(
      "site",
      type=geom_type,
      name="touch_sensor",
      size=size * 1.05,
      rgba=[1, 1, 1, 0.1],
      group=constants.SENSOR_SITES_GROUP,
    )
    self._touch = self._mjcf_root.sensor.add("touch", site=touch_site)
    self._add_frame_sensors()
    self._name = name

  def _build_observables(self):
    return PrimitiveObservables(self)

  @property
  def touch(self):
    """The touch sensor (observations and rewards)."""
    return self._touch

  @property
  def name(self):
    return self._name


class PrimitiveObservables(primitive.PrimitiveObservables):
  """The prop's pose, velocities and touch readings."""

  @define.observable
  def touch(self):
    return observable.MJCFFeature("sensordata", self._entity.touch)


class Sphere(Primitive):
  """A sphere of `radius`."""

  def _build(self, radius=0.05, mass=None, name="sphere"):
    super()._build(geom_type="sphere", size=radius, mass=mass, name=name)


class Box(Primitive):
  """A box of `half_lengths` (default 0.05, 0.1, 0.15)."""

  def _build(self, half_lengths=None, mass=None, name="box"):
    super()._build(
      geom_type="box", size=half_lengths or _DEFAULT_HALF_LENGTHS, mass=mass, name=name
    )


class BoxWithSites(Box):
  """A box with a site at each of its eight corners (`corner_sites`)."""

  def _build(self, half_lengths=None, mass=None, name="box"):
    half_lengths = half_lengths or _DEFAULT_HALF_LENGTHS
    super()._build(half_lengths=half_lengths, mass=mass, name=name)
    # corners in the order x, then y, then z, each + before -
    corners = itertools.product(*[(h, -h) for h in half_lengths[:3]])
    self._corner_sites = tuple(
      self._mjcf_root.worldbody.add(
        "site",
        type="sphere",
        name=f"corner_{i}",
        size=[0.1],
        pos=corner,
        rgba=[1, 0, 0, 1.0],
        group=constants.SENSOR_SITES_GROUP,
      )
      for i, corner in enumerate(corners)
    )

  @property
  def corner_sites(self):
    return self._corner_sites


class Ellipsoid(Primitive):
  """An ellipsoid of `radii` (default 0.05, 0.1, 0.15)."""

  def _build(self, radii=None, mass=None, name="ellipsoid"):
    super()._build(geom_type="ellipsoid", size=radii or _DEFAULT_HALF_LENGTHS, mass=mass, name=name)


class Cylinder(Primitive):
  """A cylinder of `radius` and `half_length` along its z axis."""

  def _build(self, radius=0.05, half_length=0.15, mass=None, name="cylinder"):
    super()._build(geom_type="cylinder", size=[radius, half_length], mass=mass, name=name)


class Capsule(Primitive):
  """A capsule of `radius` and cylinder `half_length` along its z axis."""

  def _build(self, radius=0.05, half_length=0.15, mass=None, name="capsule"):
    super()._build(geom_type="capsule", size=[radius, half_length], mass=mass, name=name)
