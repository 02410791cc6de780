"""MJCF to model arrays: the compiler's output, the inertia sparsity, and what we cannot simulate.

engine/types.py turns the result into an MjModel and computes its constants (mj_setConst).
"""

import numpy as np

from engine import _jit
from engine import compiler
from engine import enums
from engine import errors
from engine.collision import narrowphase
from engine.compiler import build_skin
from engine.compiler import sparsity


def compile_xml(xml: str | None, path: str | None, assets: dict | None,
                reject_unsupported: bool):
  """Compiles MJCF text or a file.

  Returns (sizes, arrays, options, extras, problems): model sizes and arrays, option values,
  Python-side extras (visual, user statistics, skins) and the features we cannot simulate yet
  (raises UnsupportedError instead when `reject_unsupported`).
  """
  c = compiler.compile_model(xml=xml, path=path, assets=assets)
  problems = unsupported_features(c.arrays.get)
  if problems and reject_unsupported:
    raise errors.UnsupportedError(
      "the model uses features this engine does not simulate yet: " + "; ".join(problems)
    )
  sizes, arrays = dict(c.sizes), dict(c.arrays)
  s = sparsity.mass_sparsity(
    arrays["dof_parentid"], arrays["body_parentid"], arrays["body_dofadr"], arrays["body_dofnum"],
    arrays["dof_simplenum"]
  )
  sizes.update(s["sizes"])
  arrays.update(s["arrays"])
  # skins are host-side (m.skin_*, outside the model handle)
  skin = {f.name: arrays.pop(f.name) for f in build_skin.SKIN_FIELDS}
  skin.update({f.name: sizes[f.name] for f in build_skin.SKIN_SIZES})
  skin["name_skinadr"] = arrays["name_skinadr"]  # mj_name2id of skins
  extras = {"vis": c.vis, "stat_user": c.stat_user, "springdamper": c.compiler["springdamper"],
            "lengthrange": c.compiler["lengthrange"], "skin": skin}
  return sizes, arrays, c.opt, extras, problems


# features of MuJoCo 3.17 that compile but are not simulated yet, by field and value
_UNSUPPORTED = (
  ("sensor_type", enums.mjSENS_TACTILE, "tactile sensor (contacts)"),
  ("sensor_type", enums.mjSENS_PLUGIN, "plugin sensor"),
)


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
  found += _ccd_distance_sensors(get)
  return found


def _uses_convex(t1, t2):
  return bool(_jit.python_callable(narrowphase.uses_convex)(t1, t2))


def _ccd_distance_sensors(get) -> list:
  """Distance sensors measuring a geom pair that MuJoCo gives to the native CCD distance
  (mjc_Convex and mjc_BoxBox pairs): our GJK in distance mode (dist_cutoff > 0) does not
  reproduce MuJoCo's witness points, nor, for degenerate simplices (box-mesh), its distance, so
  these are rejected rather than computed wrongly."""
  stype = get("sensor_type")
  if stype is None or get("geom_type") is None:
    return []
  gtype, adr, num = get("geom_type"), get("body_geomadr"), get("body_geomnum")
  found = []
  for i in np.nonzero(np.isin(stype, (enums.mjSENS_GEOMDIST, enums.mjSENS_GEOMNORMAL,
                                      enums.mjSENS_GEOMFROMTO)))[0]:
    geoms = []
    for otype, oid in ((get("sensor_objtype")[i], get("sensor_objid")[i]),
                       (get("sensor_reftype")[i], get("sensor_refid")[i])):
      geoms.append(range(adr[oid], adr[oid] + num[oid]) if otype == enums.mjOBJ_BODY
                   else range(oid, oid + 1))
    ccd = [pair for pair in (tuple(sorted((int(gtype[g1]), int(gtype[g2]))))
                             for g1 in geoms[0] for g2 in geoms[1]) if _uses_convex(*pair)]
    if ccd:
      t1, t2 = (enums.mjtGeom(t).name[7:].lower() for t in ccd[0])
      found.append(f"sensor {i}: geom distance between {t1} and {t2} (native CCD distance)")
  return found
