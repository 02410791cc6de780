"""Rescaling walkers: lengths, sizes and mass (dm_control.locomotion.walkers.rescale)."""

import mjcf

_DEFAULT_DENSITY = 1000.0  # MuJoCo's geom density (kg/m^3) when none is written


def rescale_subtree(body, position_factor, size_factor):
  """Scales, below `body` (a body, the worldbody or a model), every position by
  `position_factor` and every size by `size_factor`; sensors are left alone.

  A `fromto` segment keeps its midpoint scaled as a position and its half-extent as a size.
  Only bodies are descended into.
  """
  for child in body.all_children():
    if child.tag == "sensor":
      continue
    fromto = getattr(child, "fromto", None)
    if fromto is not None:
      centre = position_factor * 0.5 * (fromto[3:] + fromto[:3])
      half = size_factor * 0.5 * (fromto[3:] - fromto[:3])
      fromto[:3] = centre - half
      fromto[3:] = centre + half
    if getattr(child, "pos", None) is not None:
      child.pos *= position_factor
    if getattr(child, "size", None) is not None:
      child.size *= size_factor
    if child.tag in ("body", "worldbody"):
      rescale_subtree(child, position_factor, size_factor)


def rescale_humanoid(walker, position_factor, size_factor=None, mass=None):
  """Rescales a humanoid walker: the subtree holding its body named 'root' by
  `position_factor` and `size_factor` (default: `position_factor`), then, if `mass` is given,
  its masses so that the root body's subtree weighs `mass`.

  Masses are scaled as dm_control does: the `<inertial>` of every body below the root body,
  and every geom's explicit `mass`, or else its explicit density (MuJoCo's 1000 when it has
  none; densities from default classes are not looked up).

  Raises:
    ValueError: the walker's model has no body named 'root'.
  """
  root = walker.mjcf_model.find("body", "root")
  if root is None:
    raise ValueError(
      f"rescale_humanoid: the model {walker.mjcf_model.model!r} has no body named 'root'"
    )
  if size_factor is None:
    size_factor = position_factor
  rescale_subtree(root.parent, position_factor, size_factor)
  if mass is not None:
    scale_mass(walker, mass)


def scale_mass(walker, mass):
  """Scales the masses (explicit inertials, geom masses, else densities) below the walker's
  root body so that its compiled subtree mass becomes `mass`."""
  physics = mjcf.Physics.from_mjcf_model(walker.mjcf_model.root_model)
  mass_factor = mass / physics.bind(walker.root_body).subtreemass
  for body in walker.root_body.find_all("body"):
    inertial = getattr(body, "inertial", None)
    if inertial:
      inertial.mass *= mass_factor
  for geom in walker.root_body.find_all("geom"):
    if geom.mass is not None:
      geom.mass *= mass_factor
    else:
      density = _DEFAULT_DENSITY if geom.density is None else geom.density
      geom.density = density * mass_factor
