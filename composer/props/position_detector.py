"""PositionDetector: tells which registered entities have a geom inside a box region."""

import numpy as np

import mjcf
from composer import constants
from composer import entity
from composer.observation.observable import mjcf as mjcf_observable

_RENDERED_HEIGHT_IN_2D_MODE = 0.01


def _ensure_3d(pos):
  return np.hstack([pos, 0.0]) if len(pos) == 2 else pos


class _Detection:
  __slots__ = ("entity", "detected")

  def __init__(self, entity, detected=False):
    self.entity = entity
    self.detected = detected


class _GeomPositions:
  """The geoms of an entity and a reader of their xpos, (n, 3), bound once per physics."""

  __slots__ = ("any", "_xpos")

  def __init__(self, item):
    geoms = item.mjcf_model.find_all("geom")
    self.any = bool(geoms)
    self._xpos = mjcf_observable.BoundAttribute("xpos", geoms) if geoms else None

  def xpos(self, physics):
    return self._xpos(physics).reshape(-1, 3)


class PositionDetector(entity.Entity):
  """An axis-aligned box region (3D, or 2D with unbounded height) detecting entities.

  An entity is detected when the xpos of one of its geoms is strictly inside the region
  (outside with `inverted`). Detection runs at episode start and after every physics
  step; with `retain_substep_detections` a detection during a control step lasts until
  the next one begins. The region is a site that changes color when something is
  detected; it is hidden (sensor group) unless `visible`.
  """

  def _build(
    self,
    pos,
    size,
    inverted=False,
    visible=False,
    rgba=(1, 1, 1, 1),
    material=None,
    detected_rgba=(0, 1, 0, 0.25),
    retain_substep_detections=False,
    name="position_detector",
  ):
    if len(pos) != len(size):
      raise ValueError(f"`pos` and `size` should have the same length: got {pos!r} and {size!r}")
    self._inverted = inverted
    self._detected = False
    self._previously_detected = False
    self._retain_substep_detections = retain_substep_detections
    self._entities = []
    self._entity_geoms = {}
    self._rgba = np.asarray(rgba, float)
    self._detected_rgba = np.asarray(detected_rgba, float)
    self._mjcf_root = mjcf.RootElement(model=name)
    worldbody = self._mjcf_root.worldbody
    self._set_region(pos, size)
    self._site = worldbody.add(
      "site",
      name="detection_zone",
      type="box",
      pos=self._render_pos,
      size=self._render_size,
      rgba=self._rgba,
      material=material,
    )
    self._lower_site = worldbody.add(
      "site", name="lower", pos=self._lower_3d, size=[0.05], rgba=self._rgba
    )
    self._mid_site = worldbody.add(
      "site", name="mid", pos=self._mid_3d, size=[0.05], rgba=self._rgba
    )
    self._upper_site = worldbody.add(
      "site", name="upper", pos=self._upper_3d, size=[0.05], rgba=self._rgba
    )
    sensors = self._mjcf_root.sensor
    self._lower_sensor = sensors.add(
      "framepos", objtype="site", objname=self._lower_site, name=f"{name}_lower"
    )
    self._mid_sensor = sensors.add(
      "framepos", objtype="site", objname=self._mid_site, name=f"{name}_mid"
    )
    self._upper_sensor = sensors.add(
      "framepos", objtype="site", objname=self._upper_site, name=f"{name}_upper"
    )
    if not visible:
      for site in (self._site, self._lower_site, self._mid_site, self._upper_site):
        site.group = constants.SENSOR_SITES_GROUP

  def _set_region(self, pos, size):
    self._lower = np.array(pos, float) - np.array(size, float)
    self._upper = np.array(pos, float) + np.array(size, float)
    self._lower_3d = _ensure_3d(self._lower)
    self._upper_3d = _ensure_3d(self._upper)
    self._mid_3d = (self._lower_3d + self._upper_3d) / 2.0
    self._render_pos = np.zeros(3)
    self._render_pos[: len(pos)] = pos
    self._render_size = np.full(3, _RENDERED_HEIGHT_IN_2D_MODE)
    self._render_size[: len(size)] = size

  def resize(self, pos, size):
    """Moves/resizes the region in the MJCF model."""
    if len(pos) != len(size):
      raise ValueError(f"`pos` and `size` should have the same length: got {pos!r} and {size!r}")
    self._set_region(pos, size)
    self._site.pos = self._render_pos
    self._site.size = self._render_size
    self._lower_site.pos = self._lower_3d
    self._mid_site.pos = self._mid_3d
    self._upper_site.pos = self._upper_3d

  def set_colors(self, rgba, detected_rgba):
    self.set_color(rgba)
    self.set_detected_color(detected_rgba)

  def set_color(self, rgba):
    self._rgba[:3] = rgba
    self._site.rgba = self._rgba

  def set_detected_color(self, detected_rgba):
    self._detected_rgba[:3] = detected_rgba

  def set_position(self, physics, pos):
    """Moves the region in the compiled model (keeping its size)."""
    physics.bind(self._site).pos = pos
    size = physics.bind(self._site).size[:3]
    self._lower = np.array(pos) - np.array(size)
    self._upper = np.array(pos) + np.array(size)
    self._lower_3d = _ensure_3d(self._lower)
    self._upper_3d = _ensure_3d(self._upper)
    self._mid_3d = (self._lower_3d + self._upper_3d) / 2.0
    physics.bind(self._lower_site).pos = self._lower_3d
    physics.bind(self._mid_site).pos = self._mid_3d
    physics.bind(self._upper_site).pos = self._upper_3d

  @property
  def mjcf_model(self):
    return self._mjcf_root

  def register_entities(self, *entities):
    for item in entities:
      self._entities.append(_Detection(item))
      self._entity_geoms[item] = _GeomPositions(item)

  def deregister_entities(self):
    self._entities = []

  @property
  def detected_entities(self):
    return [d.entity for d in self._entities if d.detected]

  def initialize_episode_mjcf(self, random_state):
    self._entity_geoms = {d.entity: _GeomPositions(d.entity) for d in self._entities}

  def initialize_episode(self, physics, random_state):
    self._update_detection(physics)

  def before_step(self, physics, random_state):
    for detection in self._entities:
      detection.detected = False

  def after_substep(self, physics, random_state):
    self._update_detection(physics)

  def _update_detection(self, physics):
    self._previously_detected = self._detected
    self._detected = False
    lower, upper = self._lower.tolist(), self._upper.tolist()  # (zip stops at len(lower))
    for detection in self._entities:
      if not self._retain_substep_detections:
        detection.detected = False
      geoms = self._entity_geoms[detection.entity]
      if not geoms.any:
        continue
      # detected when any of the entity's geoms is in (out of, inverted) the zone
      for point in geoms.xpos(physics).tolist():
        inside = all(low < x < high for low, x, high in zip(lower, point, upper))
        if inside != self._inverted:
          detection.detected = True
          self._detected = True
          break
    if self._detected and not self._previously_detected:
      physics.bind(self._site).rgba = self._detected_rgba
    elif self._previously_detected and not self._detected:
      physics.bind(self._site).rgba = self._rgba

  def site_pos(self, physics):
    return physics.bind(self._site).pos

  @property
  def activated(self):
    return self._detected

  @property
  def upper(self):
    return self._upper

  @property
  def lower(self):
    return self._lower

  @property
  def mid(self):
    return (self._lower + self._upper) / 2.0

  @property
  def lower_site(self):
    return self._lower_site

  @property
  def mid_site(self):
    return self._mid_site

  @property
  def upper_site(self):
    return self._upper_site

  @property
  def lower_sensor(self):
    return self._lower_sensor

  @property
  def mid_sensor(self):
    return self._mid_sensor

  @property
  def upper_sensor(self):
    return self._upper_sensor
