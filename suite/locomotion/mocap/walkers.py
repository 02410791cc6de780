"""Fitting a walker to a trajectory's subject: rescaling its limbs and mass, adding markers."""

import numpy as np

import composer
from suite.locomotion.mocap import mocap_types
from suite.locomotion.walkers import rescale


class WalkerInfo:
  """What a trajectory says of its walker (a `mocap_types.Walker`), applied to walkers."""

  def __init__(self, proto):
    self._proto = proto

  def check_walker_is_compatible(self, walker):
    """Raises ValueError if the walker declares (`mocap_walker_model`) another model."""
    model = getattr(walker, "mocap_walker_model", None)
    if model is not None and model != self._proto.model:
      name = mocap_types.Walker.Model(self._proto.model).name
      raise ValueError(f"Walker is not compatible with model type {name!r}: got {walker}")

  def rescale_walker(self, walker):
    """Scales the walker's subtrees and mass to the trajectory's subject."""
    self.check_walker_is_compatible(walker)
    for subtree in self._proto.scaling.subtree:
      body = walker.mjcf_model.find("body", subtree.body_name)
      if subtree.parent_length:
        position_factor = subtree.parent_length / np.linalg.norm(body.pos)
      else:
        position_factor = subtree.size_factor
      rescale.rescale_subtree(body.parent, position_factor, subtree.size_factor)

    if self._proto.mass:
      rescale.scale_mass(walker, self._proto.mass)

  def add_marker_sites(
    self,
    walker,
    size=0.01,
    rgba=(0.0, 0.0, 1.0, 0.3),
    default_to_random_position=True,
    random_state=None,
  ):
    """Adds a site per marker to its parent body (class 'mocap'); a marker without a position
    is put at a random point within 5 mm of the body's origin (or at it). Sets the walker's
    `list_of_site_names`; returns the sites."""
    self.check_walker_is_compatible(walker)
    random_state = random_state or np.random
    # as dm_control, the class is added even when the trajectory has no markers
    mocap_class = walker.mjcf_model.default.add("default", dclass="mocap")
    mocap_class.site.set_attributes(
      type="sphere", size=(size,), rgba=rgba, group=composer.SENSOR_SITES_GROUP
    )
    sites = []
    for marker in self._proto.markers.marker:
      body = walker.mjcf_model.find("body", marker.parent)
      if not body:
        raise ValueError(f"Walker model does not contain a body named {marker.parent!r}")
      pos = marker.position
      if not len(pos):
        pos = (
          random_state.uniform(-0.005, 0.005, size=3) if default_to_random_position else np.zeros(3)
        )
      sites.append(body.add("site", name=str(marker.name), pos=pos, dclass=mocap_class))
    walker.list_of_site_names = [site.name for site in sites]
    return sites
