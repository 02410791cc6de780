"""Place: put a Duplo brick on a target held up by a pedestal, either another brick or a cradle
of three spheres."""

import numpy as np

import mjcf
from composer import define
from composer import entity
from composer.observation import observable
from suite.manipulation.shared import constants
from suite.manipulation.shared import workspaces

_TARGET_RADIUS = 0.05
_PEDESTAL_RADIUS = 0.07


class SphereCradle(entity.Entity):
  """Three spheres around a hollow a prop settles into, easier to place on than a brick."""

  _SPHERE_COUNT = 3

  def _build(self):
    self._mjcf_root = mjcf.RootElement(model="cradle")
    radius = 0.7 * _PEDESTAL_RADIUS
    # centres on a circle of 0.7 radii, sunk 0.7 radii below the origin
    for angle in np.linspace(0, 2 * np.pi, num=self._SPHERE_COUNT, endpoint=False):
      centre = 0.7 * radius * np.array([np.sin(angle), np.cos(angle), -1])
      self._mjcf_root.worldbody.add("geom", type="sphere", size=[radius], condim=6, pos=centre)

  @property
  def mjcf_model(self):
    return self._mjcf_root


class Pedestal(entity.Entity):
  """A capsule pillar 0.2 m tall under `cradle` (attached at its top), with a target site of
  `target_radius` at the origin, where the placed prop should end up."""

  _HEIGHT = 0.2

  def _build(self, cradle, target_radius):
    self._mjcf_root = mjcf.RootElement(model="pedestal")
    worldbody = self._mjcf_root.worldbody
    worldbody.add("geom", type="capsule", size=[_PEDESTAL_RADIUS],
                  fromto=[0, 0, -_PEDESTAL_RADIUS, 0, 0, -(self._HEIGHT + _PEDESTAL_RADIUS)])
    cradle_site = worldbody.add("site", type="sphere", size=(0.003,),
                                group=constants.TASK_SITE_GROUP)
    self.attach(cradle, cradle_site)
    self._target_site = workspaces.add_target_site(body=worldbody, radius=target_radius,
                                                   rgba=constants.RED)

  @property
  def mjcf_model(self):
    return self._mjcf_root

  @property
  def target_site(self):
    return self._target_site

  def _build_observables(self):
    return PedestalObservables(self)


class PedestalObservables(entity.Observables):
  """The target's position."""

  @define.observable
  def position(self):
    return observable.MJCFFeature("xpos", self._entity.target_site)
