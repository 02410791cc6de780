"""Keyframes of combined models: every key is written for the whole model's state vectors.

A <key> belongs to the model that declares it and gives values for that model's joints,
actuators and mocap bodies, in the order the compiler lays them out: either only the model's
own objects (written before anything was attached to it) or its objects together with those of
the models attached below it. When models are combined, each key is padded to the combined
model's sizes: joints of other models keep their reference configuration (qpos0, which puts a
free body where the model places it), velocities, activations and controls are zero, mocap
bodies keep their model pose. The layout is read from the compiler itself, which is compiled
once without the keyframes for that purpose.
"""

import copy

import numpy as np
from lxml import etree

from engine import errors as engine_errors
from engine.compiler import compile_model
from mjcf import attribute as attr_mod


def _names(arrays, adr_field):
  """Names of one object kind of a compiled model, in id order."""
  buf = arrays["names"]
  out = []
  for adr in arrays[adr_field]:
    end = buf.find(b"\0", int(adr))
    out.append(buf[int(adr) : end if end >= 0 else None].decode())
  return out


class _Layout:
  """Where each named joint, actuator and mocap body sits in the compiled state vectors."""

  def __init__(self, compiled):
    a = compiled.arrays
    self.qpos0 = np.array(a["qpos0"], dtype=np.float64)
    self.nv = int(compiled.sizes["nv"])
    self.nu = int(compiled.sizes["nu"])
    self.na = int(compiled.sizes["na"])
    jtype = np.asarray(a["jnt_type"])
    qwidth = np.where(jtype == 0, 7, np.where(jtype == 1, 4, 1))
    vwidth = np.where(jtype == 0, 6, np.where(jtype == 1, 3, 1))
    self.joints = {}
    for j, name in enumerate(_names(a, "name_jntadr")):
      self.joints[name] = (
        int(a["jnt_qposadr"][j]),
        int(qwidth[j]),
        int(a["jnt_dofadr"][j]),
        int(vwidth[j]),
      )
    self.actuators = {}
    ctrladr = a.get("actuator_ctrladr", np.arange(len(a["actuator_actadr"])))
    ctrlnum = a.get("actuator_ctrlnum", np.ones(len(a["actuator_actadr"]), dtype=int))
    for i, name in enumerate(_names(a, "name_actuatoradr")):
      self.actuators[name] = (
        int(ctrladr[i]),
        int(ctrlnum[i]),
        int(a["actuator_actadr"][i]),
        int(a["actuator_actnum"][i]),
      )
    self.mocap = {}
    mocapid = np.asarray(a["body_mocapid"])
    self.nmocap = int(np.sum(mocapid >= 0))
    self.mocap_pos = np.zeros((self.nmocap, 3))
    self.mocap_quat = np.zeros((self.nmocap, 4))
    for b, name in enumerate(_names(a, "name_bodyadr")):
      if mocapid[b] >= 0:
        self.mocap[name] = int(mocapid[b])
        self.mocap_pos[mocapid[b]] = a["body_pos"][b]
        self.mocap_quat[mocapid[b]] = a["body_quat"][b]


def _pad(key, field, values, base, layouts):
  """`base` with `values` written over the first layout whose size matches them.

  Args:
    key: the <key> element (for error messages).
    field: 'qpos', 'qvel', ...
    values: the key's values for its model.
    base: the combined model's default vector.
    layouts: candidate [(start, width)] block lists, each in compiled order.

  Raises:
    ValueError: no layout has as many entries as `values`.
  """
  values = np.asarray(values, dtype=np.float64)
  for blocks in layouts:
    if sum(w for _, w in blocks) != len(values):
      continue
    out = base.copy()
    k = 0
    for start, width in blocks:
      out[start : start + width] = values[k : k + width]
      k += width
    return out
  sizes = sorted({sum(w for _, w in b) for b in layouts})
  raise ValueError(
    f"keyframe {key.full_identifier!r}: {field} has {len(values)} values, "
    f"expected {' or '.join(str(s) for s in sizes)} for model {key.root.model!r}"
  )


def _blocks(elements, table, pick, opts):
  """(start, width) blocks of the compiled objects named like `elements`, in compiled order."""
  out = []
  for el in elements:
    entry = table.get(el.prefixed_identifier(opts.prefix_root))
    if entry is not None:
      out.append(pick(entry))
  return sorted(out)


def _candidates(model, frame_type):
  """Element lists a key of `model` may be written for: own objects (without, then with the
  attachment frames' joints and bodies), then the whole subtree."""
  joints = model.find_all("joint", exclude_attachments=True)
  bodies = model.find_all("body", exclude_attachments=True)
  actuators = model.find_all("actuator", exclude_attachments=True)
  return {
    "joint": (
      [j for j in joints if not isinstance(j.parent, frame_type)],
      joints,
      model.find_all("joint"),
    ),
    "body": ([b for b in bodies if not isinstance(b, frame_type)], bodies, model.find_all("body")),
    "actuator": (actuators, model.find_all("actuator")),
  }


def pad_keyframes(root, xml, opts, frame_type):
  """Rewrites the <key> elements of generated XML `xml` for the combined model; `frame_type` is
  the class of attachment frames (element.py's, passed in so that this module needs none of
  element.py)."""
  keys = root.keyframe.all_children()
  key_xml = xml.find("keyframe")
  if not keys or key_xml is None:
    return
  probe = copy.deepcopy(xml)
  probe.remove(probe.find("keyframe"))
  try:
    layout = _Layout(compile_model(xml=etree.tostring(probe), assets=root.get_assets()))
  except engine_errors.Error:
    return  # compiling the model itself will report the problem

  def fmt(v):
    return " ".join(attr_mod.format_float(x, opts.precision, opts.zero_threshold) for x in v)

  for key, kx in zip(keys, key_xml.findall("key")):
    cand = _candidates(key.root, frame_type)
    joints = [_blocks(j, layout.joints, lambda e: e[:2], opts) for j in cand["joint"]]
    dofs = [_blocks(j, layout.joints, lambda e: e[2:], opts) for j in cand["joint"]]
    ctrls = [_blocks(a, layout.actuators, lambda e: e[:2], opts) for a in cand["actuator"]]
    acts = [_blocks(a, layout.actuators, lambda e: e[2:], opts) for a in cand["actuator"]]
    mocap = [_blocks(b, layout.mocap, lambda e: e, opts) for b in cand["body"]]
    fields = {
      "qpos": (layout.qpos0, joints),
      "qvel": (np.zeros(layout.nv), dofs),
      "ctrl": (np.zeros(layout.nu), ctrls),
      "act": (np.zeros(layout.na), acts),
      "mpos": (layout.mocap_pos.reshape(-1), [[(3 * m, 3) for m in b] for b in mocap]),
      "mquat": (layout.mocap_quat.reshape(-1), [[(4 * m, 4) for m in b] for b in mocap]),
    }
    for field, (base, layouts) in fields.items():
      values = key._get_attribute(field)
      if values is not None:
        kx.set(field, fmt(_pad(key, field, values, base, layouts)))
