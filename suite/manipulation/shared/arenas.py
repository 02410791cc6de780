"""The arena of the manipulation tasks: a checkered floor under a gradient sky, lit from above."""

from composer import arena


class Standard(arena.Arena):
  """The base arena with a 2 m x 2 m ground plane, a skybox and a light 1.5 m above the
  origin, where the free camera looks."""

  def _build(self, name=None):
    super()._build(name=name)
    assets = self.mjcf_model.asset
    assets.add(
      "texture",
      type="skybox",
      builtin="gradient",
      rgb1=(0.4, 0.6, 0.8),
      rgb2=(0.0, 0.0, 0.0),
      width=100,
      height=100,
    )
    checker = assets.add(
      "texture",
      name="groundplane",
      type="2d",
      builtin="checker",
      rgb1=(0.2, 0.3, 0.4),
      rgb2=(0.1, 0.2, 0.3),
      width=300,
      height=300,
      mark="edge",
      markrgb=(0.8, 0.8, 0.8),
    )
    material = assets.add(
      "material",
      name="groundplane",
      texture=checker,
      texrepeat=(5, 5),
      texuniform="true",
      reflectance=0.2,
    )
    worldbody = self.mjcf_model.worldbody
    worldbody.add(
      "geom",
      name="ground",
      type="plane",
      material=material,
      size=(1, 1, 0.1),
      friction=(0.4,),
      solimp=(0.95, 0.99, 0.001),
      solref=(0.002, 1),
    )
    worldbody.add(
      "light",
      pos=(0, 0, 1.5),
      dir=(0, 0, -1),
      diffuse=(0.7, 0.7, 0.7),
      specular=(0.3, 0.3, 0.3),
      directional="false",
      castshadow="true",
    )
    self.mjcf_model.statistic.center = (0.0, 0.0, 0.0)

  def attach_offset(self, entity, offset, attach_site=None):
    """Attaches `entity` rigidly at `offset` (xyz) from the attachment site (by default the
    arena's); returns its attachment frame."""
    frame = self.attach(entity, attach_site=attach_site)
    frame.pos = offset
    return frame
