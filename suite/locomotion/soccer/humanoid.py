"""The soccer humanoid: the position-controlled CMU humanoid (V2020) with visual touches for
soccer (dm_control.locomotion.soccer.humanoid).

Only the GEOM visual is built: dm_control's JERSEY visual dresses the humanoid in a skinned
shirt from a skin file and shirt-number images, which we do not ship; asking for it raises a
ValueError.
"""

import enum

import numpy as np

from suite.locomotion.walkers import cmu_humanoid

_MAX_WALKER_ID = 10


class Humanoid(cmu_humanoid.CMUHumanoidPositionControlled):
  """A CMU humanoid with a face, larger visual hands, no tracking light, and the team colour
  (at alpha 0.7) on its feet, face and trunk.

  `Humanoid(visual, marker_rgba, walker_id=None, initializer=None, name='walker')`.
  """

  class Visual(enum.Enum):
    GEOM = 1
    JERSEY = 2

  def _build(self, visual, marker_rgba, walker_id=None, initializer=None, name="walker"):
    if not isinstance(visual, Humanoid.Visual):
      raise ValueError("`visual` must be one of `Humanoid.Visual`.")
    if len(marker_rgba) != 4:
      raise ValueError("`marker_rgba` must be a sequence of length 4.")
    if walker_id is None and visual != Humanoid.Visual.GEOM:
      raise ValueError("`walker_id` must be set unless `visual` is set to `Visual.GEOM`.")
    if walker_id is not None and not 0 <= walker_id <= _MAX_WALKER_ID:
      raise ValueError(f"walker_id must be in [0-{_MAX_WALKER_ID}], got: {walker_id}.")
    if visual == Humanoid.Visual.JERSEY:
      raise ValueError(
        "The JERSEY visual (a skinned shirt) is not available in this port: "
        "use `Humanoid.Visual.GEOM`."
      )
    marker_rgba = list(marker_rgba)
    marker_rgba[-1] = 0.7
    super()._build(marker_rgba=marker_rgba, initializer=initializer, include_face=True)
    self._mjcf_root.model = name
    # bigger visual-only copies of the hands' geoms (the real ones hidden)
    for hand_name in ("lhand", "rhand"):
      for geom in self._mjcf_root.find("body", hand_name).find_all("geom"):
        geom.rgba = (0, 0, 0, 0)
        scale = 1.3 if geom.name == hand_name else 1.5  # palm, fingers
        geom.parent.add(
          "geom",
          name=geom.name + "_visual",
          type=geom.type,
          quat=geom.quat,
          mass=0,
          contype=0,
          conaffinity=0,
          size=geom.size * scale,
          pos=geom.pos * 1.5,
        )
    self._mjcf_root.find("light", "tracking_light").remove()  # several walkers share a scene
    self._prev_action = np.zeros(shape=self.action_spec.shape, dtype=self.action_spec.dtype)

  @property
  def marker_geoms(self):
    """Face, feet and trunk geoms, coloured by `marker_rgba`."""
    geoms = []
    face = self._mjcf_root.find("geom", "face")
    if face is not None:
      geoms.append(face)
    geoms += self._mjcf_root.find("body", "rfoot").find_all("geom")
    geoms += self._mjcf_root.find("body", "lfoot").find_all("geom")
    return geoms + [
      self._mjcf_root.find("geom", name)
      for name in (
        "lowerneck",
        "lclavicle",
        "rclavicle",
        "thorax",
        "upperback",
        "lowerback",
        "rfemur",
        "lfemur",
        "root_geom",
      )
    ]

  def initialize_episode(self, physics, random_state):
    self._prev_action = np.zeros(shape=self.action_spec.shape, dtype=self.action_spec.dtype)

  def apply_action(self, physics, action, random_state):
    super().apply_action(physics, action, random_state)
    self._prev_action[:] = action

  @property
  def prev_action(self):
    return self._prev_action
