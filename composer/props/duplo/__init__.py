"""A 2x4 Duplo brick whose studs click into another brick's underside (dm_control's
`entities.props.duplo`).

The grip between two bricks comes from the stud radius: each episode draws it uniformly from a
range chosen so that the force needed to pull two bricks apart spreads like that of real bricks
(6-18 N, about 10 N at `variation=0`). The model is `assets/manipulation/duplo2x4.xml`.
"""

import collections

import numpy as np

import assets
import mjcf
from composer import define
from composer import entity
from composer.observation import observable

_DUPLO_XML_PATH = str(assets.MANIPULATION / "duplo2x4.xml")

# Range of the stud radius (m) for each stud shape: `variation` scales the spread about the
# lower quartile, which stays put (0 gives the lower quartile alone).
_StudSize = collections.namedtuple("_StudSize", ["minimum", "lower_quartile", "maximum"])
_StudParams = collections.namedtuple("_StudParams", ["easy_align", "flanges"])

_STUD_SIZE_PARAMS = {
  _StudParams(easy_align=False, flanges=False): _StudSize(
    minimum=0.004685, lower_quartile=0.004781, maximum=0.004898
  ),
  _StudParams(easy_align=False, flanges=True): _StudSize(
    minimum=0.004609, lower_quartile=0.004647, maximum=0.004716
  ),
  _StudParams(easy_align=True, flanges=False): _StudSize(
    minimum=0.004754, lower_quartile=0.004844, maximum=0.004953
  ),
  _StudParams(easy_align=True, flanges=True): _StudSize(
    minimum=0.004695, lower_quartile=0.004717, maximum=0.004765
  ),
}

_COLOR_NOT_BETWEEN_0_AND_1 = "All values in `color` must be between 0 and 1, got {!r}."


class Duplo(entity.Entity):
  """A 2x4 Duplo brick.

  `Duplo(easy_align=False, flanges=True, variation=0.0, color=(1., 0., 0.))`: `easy_align`
  makes the studs capsules (easier to seat), `flanges` turns on the ribs that let bricks grip
  when only partly overlapping (costlier contacts), `variation` in [0, 1] spreads the
  separation force from deterministic (0) to that of real bricks (1), `color` is RGB in [0, 1].
  """

  def _build(self, easy_align=False, flanges=True, variation=0.0, color=(1.0, 0.0, 0.0)):
    self._mjcf_root = mjcf.from_path(_DUPLO_XML_PATH)
    defaults = self._mjcf_root.default
    stud_class = defaults.find("default", "stud")
    if easy_align:
      # the cylinders become invisible and stop touching other bricks' underside; the
      # capsules take their place
      stud_class.geom.group = 3
      stud_class.geom.contype = 9
      stud_class.geom.conaffinity = 8
      capsule_class = defaults.find("default", "stud-capsule")
      capsule_class.geom.group = 0
      capsule_class.geom.contype = 0
      capsule_class.geom.conaffinity = 4
      self._active_stud_dclass = capsule_class
    else:
      self._active_stud_dclass = stud_class
    if flanges:
      defaults.find("default", "flange").geom.contype = 4

    size = _STUD_SIZE_PARAMS[(easy_align, flanges)]
    centre = (1 - variation) * size.lower_quartile
    self._lower = centre + variation * size.minimum
    self._upper = centre + variation * size.maximum

    self._studs = np.ndarray((2, 4), dtype=object)
    self._holes = np.ndarray((2, 4), dtype=object)
    for row in range(2):
      for column in range(4):
        self._studs[row, column] = self._mjcf_root.find("site", f"stud_{row}{column}")
        self._holes[row, column] = self._mjcf_root.find("site", f"hole_{row}{column}")

    if not all(0 <= value <= 1 for value in color):
      raise ValueError(_COLOR_NOT_BETWEEN_0_AND_1.format(color))
    defaults.geom.rgba[:3] = color

  def initialize_episode_mjcf(self, random_state):
    """Draws this episode's stud radius, and with it the separation force."""
    self._active_stud_dclass.geom.size[0] = random_state.uniform(self._lower, self._upper)

  def _build_observables(self):
    return DuploObservables(self)

  @property
  def studs(self):
    """(2, 4) array of the sites at the tops of the studs."""
    return self._studs

  @property
  def holes(self):
    """(2, 4) array of the sites where the studs of a brick underneath sit."""
    return self._holes

  @property
  def mjcf_model(self):
    return self._mjcf_root


class DuploObservables(entity.Observables, entity.FreePropObservableMixin):
  """The brick's frame sensors (at its bounding box) and the force on it."""

  def _sensor(self, name):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.find("sensor", name))

  @define.observable
  def position(self):
    return self._sensor("position")

  @define.observable
  def orientation(self):
    return self._sensor("orientation")

  @define.observable
  def linear_velocity(self):
    return self._sensor("linear_velocity")

  @define.observable
  def angular_velocity(self):
    return self._sensor("angular_velocity")

  @define.observable
  def force(self):
    return self._sensor("force")
