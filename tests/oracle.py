"""Helpers that build our models from MuJoCo's, so each pipeline stage is tested in isolation.

`from_mujoco(mjm)` copies every field of engine/fields.py out of a compiled
`mujoco.MjModel`, so kinematics, dynamics and integrators can be compared with
MuJoCo on exactly the same model, independent of our MJCF compiler.
"""

import pathlib

import mujoco
import numpy as np

import engine
from engine import fields as F
from engine import types as T


def from_mujoco(mjm) -> T.MjModel:
  """Our MjModel with every field copied from a compiled mujoco.MjModel."""
  sizes = {n: getattr(mjm, n) for n in F.MODEL_SIZE_NAMES if n not in F.ENGINE_ONLY_MODEL}
  arrays = {}
  for f in F.MODEL_FIELDS:
    if f.name in F.ENGINE_ONLY_MODEL:
      continue
    v = getattr(mjm, f.name)
    arrays[f.name] = bytes(v) if f.dtype == "S" else np.array(v)
  opt = T.MjOption()
  for f in F.OPTION_FIELDS:
    opt._arrays[f.name][...] = getattr(mjm.opt, f.name)
  stat = T.MjStatistic()
  for f in F.STATISTIC_FIELDS:
    stat._arrays[f.name][...] = getattr(mjm.stat, f.name)
  vis = {}
  for attr, tag in T.VISUAL_GROUPS:
    group = getattr(mjm.vis, attr)
    # the bindings read some rgba entries back empty: those keep our defaults
    vis[tag] = {
      n: getattr(group, n)
      for n in dir(group)
      if not n.startswith("_") and np.size(getattr(group, n))
    }
  extras = {"vis": vis, "plugin_names": [_mujoco_plugin_name(s) for s in mjm.plugin]}
  return T.MjModel(sizes, arrays, opt, stat, extras)


# a model with one instance of each first-party plugin our engine has
_PROBES = {
  "mujoco.pid": '<worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>'
  '<actuator><plugin joint="j" instance="p"/></actuator>',
  "mujoco.elasticity.cable": '<worldbody><body><joint/><geom size=".1"/><plugin instance="p"/>'
  "</body></worldbody>",
}
_SLOT_NAMES = {}


def _mujoco_plugin_name(slot) -> str:
  """Name of the plugin in slot `slot` of the mujoco package's registry (our models bind
  their instances by name), found by compiling a one-instance model of each plugin."""
  if not _SLOT_NAMES:
    for name, body in _PROBES.items():
      probe = mujoco.MjModel.from_xml_string(
        f'<mujoco><extension><plugin plugin="{name}"><instance name="p"/></plugin>'
        f"</extension>{body}</mujoco>"
      )
      _SLOT_NAMES[int(probe.plugin[0])] = name
  return _SLOT_NAMES[int(slot)]


def load(xml: str):
  """(mujoco model, mujoco data, our model, our data) for the same MJCF."""
  mjm = mujoco.MjModel.from_xml_string(xml)
  mjd = mujoco.MjData(mjm)
  m = from_mujoco(mjm)
  d = engine.MjData(m)
  return mjm, mjd, m, d


def copy_state(mjd, d):
  """Copies MuJoCo's full physics state and inputs into our data."""
  d.time = mjd.time
  for name in (
    "qpos",
    "qvel",
    "act",
    "ctrl",
    "qfrc_applied",
    "xfrc_applied",
    "mocap_pos",
    "mocap_quat",
    "qacc_warmstart",
    "eq_active",
  ):
    getattr(d, name)[...] = getattr(mjd, name)


def copy_contacts(mjd, d):
  """Copies MuJoCo's detected contacts into our data (to test constraint code in isolation)."""
  n = mjd.ncon
  d._arrays["ncon"][0] = n
  for name in (
    "dist",
    "pos",
    "frame",
    "includemargin",
    "friction",
    "solref",
    "solreffriction",
    "solimp",
    "mu",
    "H",
    "adhesion",
    "dim",
    "geom",
    "flex",
    "elem",
    "vert",
    "exclude",
    "efc_address",
  ):
    d._arrays["contact_" + name][:n] = getattr(mjd.contact, name)


def _is_constraint_field(name):
  """Constraint rows and their islands (the island-major i* fields sized by nidof)."""
  return name.startswith(("efc_", "iefc_", "island_", "map_")) or name in (
    "tree_island",
    "dof_island",
    "ifrc_smooth",
    "iacc_smooth",
    "ifrc_constraint",
    "iacc",
  )


def copy_constraints(mjd, d):
  """Copies MuJoCo's constraint rows and islands (efc_, island fields and counters) into our
  data (to test the solvers in isolation)."""
  for name in ("ne", "nf", "nl", "nefc", "nJ", "nisland", "nidof"):
    d._arrays[name][0] = getattr(mjd, name)
  for f in F.DATA_FIELDS:
    if _is_constraint_field(f.name):
      v = np.asarray(getattr(mjd, f.name))
      d._arrays[f.name][: len(v)] = v


def copy_data(mjd, d):
  """Copies every data array MuJoCo has (state and intermediate results, contacts and
  constraint rows) into ours."""
  d.time = mjd.time
  for f in F.DATA_FIELDS:
    if f.kernel and not f.is_scalar and hasattr(mjd, f.name) and not _is_constraint_field(f.name):
      getattr(d, f.name)[...] = getattr(mjd, f.name)
  copy_contacts(mjd, d)
  copy_constraints(mjd, d)


CONTACT_MODELS = pathlib.Path(__file__).parent / "models" / "contact"


def settled_contact_scene(name: str, nstep: int):
  """(mujoco model, mujoco data, our model, our data) of tests/models/contact/<name>.xml after
  MuJoCo simulated it nstep steps (the gripper squeezing) and ran mj_forward; ours holds the
  same state."""
  mjm = mujoco.MjModel.from_xml_path(str(CONTACT_MODELS / f"{name}.xml"))
  mjd = mujoco.MjData(mjm)
  mjd.ctrl[:] = 0.02 if name == "gripper" else 0.0
  mujoco.mj_step(mjm, mjd, nstep)
  mujoco.mj_forward(mjm, mjd)
  m = from_mujoco(mjm)
  d = engine.MjData(m)
  copy_state(mjd, d)
  return mjm, mjd, m, d
