"""The base Arena: the root entity of a task, holding the global simulation settings.

The settings are those of dm_control's base arena (elliptic friction cones, 5 noslip
iterations, 2 ms timestep, bounded masses and inertias, near clip 1 cm, its headlight
and visual scales), so a task built on it simulates as in dm_control.
"""

import mjcf
from composer import entity as entity_module


def _base_arena_model():
  """The default arena model, built element by element."""
  model = mjcf.RootElement(model="base")
  model.compiler.set_attributes(angle="radian", eulerseq="xyz", boundmass=1e-5, boundinertia=1e-11)
  model.option.set_attributes(
    cone="elliptic", noslip_iterations=5, noslip_tolerance=0, timestep=0.002
  )
  model.visual.map.znear = 0.01
  model.visual.headlight.set_attributes(
    diffuse=(0.6, 0.6, 0.6), ambient=(0.3, 0.3, 0.3), specular=(0, 0, 0)
  )
  model.visual.scale.set_attributes(
    forcewidth=0.01,
    contactwidth=0.06,
    contactheight=0.01,
    jointwidth=0.01,
    framewidth=0.01,
    framelength=0.3,
  )
  return model


class Arena(entity_module.Entity):
  """The root entity of a scene; `Arena(name=None, xml_path=None)`."""

  def __init__(self, *args, **kwargs):
    self._mjcf_root = None
    super().__init__(*args, **kwargs)

  def _build(self, name=None, xml_path=None):
    """Builds the default arena model, or loads `xml_path`; `name` renames the model."""
    self._mjcf_root = mjcf.from_path(xml_path) if xml_path else _base_arena_model()
    if name:
      self._mjcf_root.model = name

  def add_free_entity(self, entity):
    """Attaches `entity` with a free joint; returns its attachment frame."""
    frame = self.attach(entity)
    frame.add("freejoint")
    return frame

  def attach_offset(self, entity, offset, attach_site=None):
    """Attaches `entity` rigidly at `offset` (xyz) from the attachment site."""
    frame = self.attach(entity, attach_site=attach_site)
    frame.pos = offset
    return frame

  @property
  def mjcf_model(self):
    return self._mjcf_root
