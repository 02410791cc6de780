"""MJCF compiler vs MuJoCo: every size, array and option of our test models.

Each model under tests/models/compiler/ is compiled by `mujoco` (the oracle) and by
engine.compiler; every array we produce must match the mujoco field of the same name in dtype,
shape and value (ints exact, floats to 1e-12). Fields mj_setConst computes from a forward pass
at qpos0 (engine/setconst.py's job) are skipped or masked where setConst rewrites them.
"""

import pathlib

import mujoco
import numpy as np
import pytest

from engine.compiler import compile_model

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models" / "compiler"

# computed by mj_setConst from a forward pass (not the compiler's output)
SETCONST_FIELDS = {
  "body_invweight0",
  "dof_invweight0",
  "dof_M0",
  "dof_length",
  "tendon_length0",
  "tendon_invweight0",
  "actuator_acc0",
  "actuator_length0",
  "cam_poscom0",
  "cam_pos0",
  "cam_mat0",
  "light_poscom0",
  "light_pos0",
  "light_dir0",
}
# sizes mujoco derives from memory layout or other modules' data
SKIP_SIZES = {"nbuffer"}


def _setconst_mask(name, ours, mjm):
  """Boolean mask of entries mj_setConst may rewrite (excluded from comparison)."""
  mask = np.zeros(ours.shape, bool)
  if name == "tendon_lengthspring":
    mask[(ours[:, 0] == -1) & (ours[:, 1] == -1)] = True
  elif name == "actuator_biasprm":
    pid = mjm.actuator_gaintype == mujoco.mjtGain.mjGAIN_PID
    pos = (ours[:, 2] > 0) & ((mjm.actuator_gainprm[:, 0] == -ours[:, 1]) | pid)
    mask[pos, 2] = True
  elif name == "eq_data":
    for i in range(len(ours)):
      if mjm.eq_type[i] == mujoco.mjtEq.mjEQ_CONNECT:
        mask[i] = True
      elif mjm.eq_type[i] == mujoco.mjtEq.mjEQ_WELD and mjm.eq_objtype[i] == 1:
        if not ours[i, 6:10].any():
          mask[i, 3:10] = True
          mask[i, 11] = True
  elif name == "actuator_lengthrange":
    muscle = np.repeat(mjm.actuator_gaintype == mujoco.mjtGain.mjGAIN_MUSCLE, mjm.actuator_outnum)
    unset = ours[:, 0] >= ours[:, 1]
    mask[muscle & unset] = True
  return mask


def compare(xml=None, path=None, assets=None, atol=1e-12, tol=None, skip=()):
  """Compiles with both engines and asserts every produced field matches; returns both.

  Floats match to atol + 1e-12 relative; `tol` gives looser per-field absolute tolerances and
  `skip` fields to leave out (documented where used).
  """
  tol = tol or {}
  if path is not None:
    mjm = mujoco.MjModel.from_xml_path(str(path), assets or {})
  else:
    mjm = mujoco.MjModel.from_xml_string(xml, assets or {})
  c = compile_model(xml=xml, path=path, assets=assets)
  errors = []
  for name, value in c.sizes.items():
    if name in SKIP_SIZES or name in skip:
      continue
    if value != getattr(mjm, name):
      errors.append(f"size {name}: ours {value}, mujoco {getattr(mjm, name)}")
  for name, ours in c.arrays.items():
    if name in SETCONST_FIELDS or name in skip:
      continue
    ref = getattr(mjm, name)
    if isinstance(ref, bytes):
      if bytes(ours) != ref:
        errors.append(f"{name}: ours {bytes(ours)!r}, mujoco {ref!r}")
      continue
    if ours.dtype != ref.dtype:
      errors.append(f"{name}: dtype ours {ours.dtype}, mujoco {ref.dtype}")
      continue
    if ours.shape != ref.shape:
      errors.append(f"{name}: shape ours {ours.shape}, mujoco {ref.shape}")
      continue
    mask = _setconst_mask(name, ours, mjm)
    if ours.dtype.kind == "f":
      bad = ~np.isclose(ours, ref, rtol=1e-12, atol=tol.get(name, atol)) & ~mask
      bad &= ~(np.isinf(ours) & np.isinf(ref))
    else:
      bad = (ours != ref) & ~mask
    if bad.any():
      idx = np.argwhere(bad)[:4]
      detail = ", ".join(f"{tuple(i)}: {ours[tuple(i)]!r} vs {ref[tuple(i)]!r}" for i in idx)
      errors.append(f"{name}: {int(bad.sum())} mismatches, e.g. {detail}")
  for name, value in c.opt.items():
    ref = getattr(mjm.opt, name)
    if not np.allclose(value, ref, rtol=0, atol=1e-15):
      errors.append(f"opt.{name}: ours {value}, mujoco {ref}")
  for sub, values in c.vis.items():
    ref = getattr(mjm.vis, "global_" if sub == "global" else sub)
    for name, value in values.items():
      r = np.asarray(getattr(ref, name))
      if r.size != np.size(value):
        continue  # bindings bug: some MjVisual.rgba entries read back empty
      if not np.allclose(np.float32(value), r, rtol=0, atol=0):
        errors.append(f"vis.{sub}.{name}: ours {value}, mujoco {r}")
  for name, value in c.stat_user.items():
    if not np.allclose(value, getattr(mjm.stat, name), rtol=0, atol=1e-15):
      errors.append(f"stat.{name}: ours {value}, mujoco {getattr(mjm.stat, name)}")
  assert not errors, "\n".join(errors)
  return mjm, c


# Mesh frames match MuJoCo's to ~1e-14 (engine/compiler/mesh.py: mesh_eig3); fields MuJoCo
# stores as float32 (mesh_vert, mesh_normal) or computes from them may round to the neighbouring
# float32 value; hull graphs number their vertices differently (tests/engine/test_mesh.py)
MESH_TOL = {
  k: 1e-10
  for k in (
    "geom_size",
    "geom_aabb",
    "geom_rbound",
    "geom_quat",
    "geom_pos",
    "mesh_quat",
    "body_iquat",
    "site_size",
    "body_inertia",
    "bvh_aabb",
  )
}
MESH_TOL.update({k: 2e-7 for k in ("mesh_vert", "mesh_normal")})
# hull numbering differs (test_mesh.py); so do the order and first vertex of the hull polygons,
# compared as sets in test_mesh_polygons.py
POLY_ORDER = {
  "mesh_polynormal",
  "mesh_polyvert",
  "mesh_polyvertadr",
  "mesh_polyvertnum",
  "mesh_polymap",
}
MESH_SKIP = {"mesh_graph", "mesh_extrema"} | POLY_ORDER
MODEL_OPTIONS = {
  "assets": dict(tol=MESH_TOL, skip=MESH_SKIP),
  "discardvisual": dict(tol=MESH_TOL, skip=MESH_SKIP),
  "defaults": dict(tol=MESH_TOL, skip=MESH_SKIP),
}


@pytest.mark.parametrize("path", sorted(MODELS.glob("*.xml")), ids=lambda p: p.stem)
def test_model_matches_mujoco(path):
  compare(path=path, **MODEL_OPTIONS.get(path.stem, {}))


def test_coverage_of_mujoco_fields():
  """Every MjModel array a rich model needs is produced (names of mujoco fields)."""
  _, c = compare(path=MODELS / "actuators.xml")
  mjm_fields = set(mujoco.MjModel.from_xml_string("<mujoco/>")._all_fields)
  assert set(c.arrays) <= mjm_fields
  for name in (
    "qpos0",
    "body_rootid",
    "body_weldid",
    "body_treeid",
    "dof_treeid",
    "body_sameframe",
    "geom_sameframe",
    "geom_rbound",
    "geom_aabb",
    "body_simple",
    "dof_simplenum",
    "actuator_actadr",
    "names",
    "name_bodyadr",
    "jnt_qposadr",
    "tree_bodyadr",
    "body_subtreemass",
    "actuator_gainprm",
    "names_map",
  ):
    assert name in c.arrays
