"""MJCF to model arrays: the compiler's output, the inertia sparsity, and what we cannot simulate.

engine/types.py turns the result into an MjModel and computes its constants (mj_setConst).
"""

import numpy as np

from engine import compiler
from engine import enums
from engine import errors
from engine.compiler import build_skin
from engine.compiler import sparsity


def compile_xml(
  xml: str | None,
  path: str | None,
  assets: dict | None,
  reject_unsupported: bool,
  keep_elements: bool = False,
):
  """Compiles MJCF text or a file.

  Returns (sizes, arrays, options, extras, problems): model sizes and arrays, option values,
  Python-side extras (visual, user statistics, skins; with keep_elements also the compiler's
  elements under "elements") and the features we cannot simulate yet (raises UnsupportedError
  instead when `reject_unsupported`).
  """
  c = compiler.compile_model(xml=xml, path=path, assets=assets, keep_elements=keep_elements)
  problems = unsupported_features(c.arrays.get)
  if problems and reject_unsupported:
    raise errors.UnsupportedError(
      "the model uses features this engine does not simulate yet: " + "; ".join(problems)
    )
  sizes, arrays = dict(c.sizes), dict(c.arrays)
  s = sparsity.mass_sparsity(
    arrays["dof_parentid"],
    arrays["body_parentid"],
    arrays["body_dofadr"],
    arrays["body_dofnum"],
    arrays["dof_simplenum"],
  )
  sizes.update(s["sizes"])
  arrays.update(s["arrays"])
  # skins are host-side (m.skin_*, outside the model handle)
  skin = {f.name: arrays.pop(f.name) for f in build_skin.SKIN_FIELDS}
  skin.update({f.name: sizes[f.name] for f in build_skin.SKIN_SIZES})
  skin["name_skinadr"] = arrays["name_skinadr"]  # mj_name2id of skins
  extras = {
    "vis": c.vis,
    "stat_user": c.stat_user,
    "springdamper": c.compiler["springdamper"],
    "lengthrange": c.compiler["lengthrange"],
    "skin": skin,
    "plugin_names": list(c.plugin_names),
  }
  if keep_elements:
    extras["elements"] = c.elements
  return sizes, arrays, c.opt, extras, problems


# features of MuJoCo 3.17 that compile but are not simulated yet, by field and value
_UNSUPPORTED = (("sensor_type", enums.mjSENS_TACTILE, "tactile sensor (contacts)"),)


def unsupported_features(get) -> list:
  """Descriptions of the compiled features we cannot simulate yet ([] if none).

  `get(field)` returns a compiled MjModel array (or None). Each entry names the
  element kind, its index and the feature, e.g. "sensor 3: tactile sensor (contacts)".
  """
  found = []
  for field, value, what in _UNSUPPORTED:
    arr = get(field)
    if arr is None:
      continue
    kind = field.split("_")[0]
    for i in np.nonzero(np.asarray(arr) == value)[0]:
      found.append(f"{kind} {i}: {what}")
  return found
