"""The looks an arena can take besides its default one ('outdoor_natural').

dm_control's 'outdoor_natural' look loads two PNG files it ships, a 512x512 grass texture and a
cube-map sky photograph (faces of 512x512), which we do not copy. Here the look is a stand-in
made of MuJoCo's builtin textures with the same roles, names, types and sizes: a grass-green 2D
ground texture speckled with lighter blades, its material (uniform texture mapping, MuJoCo's
default repeat and no reflectance, as dm_control's), and a skybox that fades from sky blue to a
pale horizon. Geometry and physics are unaffected by the choice of look.
"""

DEFAULT = "default"
TEXTURED = ("outdoor_natural",)
AESTHETICS = (DEFAULT,) + TEXTURED

# the sizes of dm_control's images: a square ground texture and one cube face of the skybox
_GROUND_TEXTURE_SIZE = 512
_SKYBOX_FACE_SIZE = 512


def check_aesthetic(aesthetic, owner, choices=AESTHETICS):
  """Raises ValueError naming `owner` unless `aesthetic` is one of `choices`."""
  if aesthetic not in choices:
    raise ValueError(f"{owner} `aesthetic` must be one of {choices}, got {aesthetic!r}")


def add_ground_look(mjcf_root, aesthetic):
  """Adds the textured ground material of a non-default look; returns (texture, material)."""
  check_aesthetic(aesthetic, "a textured ground", TEXTURED)
  texture = mjcf_root.asset.add(
    "texture",
    name="aesthetic_texture",
    type="2d",
    builtin="flat",
    rgb1=[0.24, 0.4, 0.13],
    mark="random",
    random=0.25,
    markrgb=[0.42, 0.58, 0.24],
    width=_GROUND_TEXTURE_SIZE,
    height=_GROUND_TEXTURE_SIZE,
  )
  material = mjcf_root.asset.add(
    "material", name="aesthetic_material", texture=texture, texuniform=True
  )
  return texture, material


def add_skybox(mjcf_root, aesthetic):
  """Adds the skybox of a non-default look; returns the texture."""
  check_aesthetic(aesthetic, "a skybox", TEXTURED)
  # a builtin skybox is `width` pixels square per face, six faces stacked
  return mjcf_root.asset.add(
    "texture",
    name="aesthetic_skybox",
    type="skybox",
    builtin="gradient",
    rgb1=[0.33, 0.55, 0.86],
    rgb2=[0.86, 0.9, 0.94],
    width=_SKYBOX_FACE_SIZE,
    height=6 * _SKYBOX_FACE_SIZE,
  )
