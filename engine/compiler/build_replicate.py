"""<replicate>: repeated copies of a subtree, each in its own frame, with suffixed names.

Port of the replicate branch of mjXReader::Body (xml_native_reader.cc), which attaches one copy
of the parsed subtree per repetition: copy i sits in a frame at the accumulated offset, rotated
by i times `euler`, and every name in it (and every camera/light target) gets the suffix
`sep` + i zero-padded to the number of digits of `count`. Nested replicates are expanded
innermost first, so inner suffixes come before outer ones, as in MuJoCo.
"""

from engine.compiler import build_math as bm
from engine.compiler.parse import Node

# namespaces of the kinematic-tree elements whose names get the suffix
_TREE_NS = {"body", "joint", "geom", "site", "camera", "light", "frame"}


def expand(node, degree, eulerseq):
  """Replaces every <replicate> below `node` (in place) by its copies, each in a <frame>."""
  if not any(c.children or c.tag == "replicate" for c in node.children):
    return
  out = []
  for c in node.children:
    expand(c, degree, eulerseq)
    if c.tag == "replicate":
      out.extend(_copies(c, degree, eulerseq))
    else:
      out.append(c)
  node.children = out


def _copies(rep, degree, eulerseq):
  """The frames holding the copies of one (already expanded) replicate element."""
  for c in rep.children:
    if c.tag in ("joint", "freejoint"):
      raise c.error(f"{c.tag} cannot be a direct child of replicate")
  a = rep.attrs
  count = a["count"]
  offset = list(a.get("offset", (0.0, 0.0, 0.0)))
  euler = list(a.get("euler", (0.0, 0.0, 0.0)))
  rotation = _euler_quat(rep, euler, 1, degree, eulerseq)
  digits = len(str(count))
  pos = [0.0, 0.0, 0.0]
  frames = []
  for i in range(count):
    quat = _euler_quat(rep, euler, i, degree, eulerseq)
    attrs = {"pos": tuple(pos), "quat": tuple(quat)}
    if "childclass" in a:
      attrs["childclass"] = a["childclass"]
    frame = Node("frame", attrs, [], rep.line, rep.file, rep.parent)
    suffix = a.get("sep", "") + str(i).zfill(digits)
    frame.children = [_copy(c, frame, suffix) for c in rep.children]
    frames.append(frame)
    pos, _ = bm.frameaccum(pos, quat, offset, rotation)
  return frames


def _euler_quat(rep, euler, i, degree, eulerseq):
  """Orientation of copy i: i times the replicate's euler angles, resolved like MuJoCo."""
  spec = {"quat": (1.0, 0.0, 0.0, 0.0), "euler": [i * v for v in euler]}
  return bm.resolve_orientation(rep, spec, degree, eulerseq)


def _copy(node, parent, suffix):
  """Deep copy of a subtree with names (and camera/light targets) suffixed."""
  attrs = dict(node.attrs)
  if "name" in attrs and node.spec.ns in _TREE_NS:
    attrs["name"] += suffix
  if node.tag in ("camera", "light") and "target" in attrs:
    attrs["target"] += suffix
  new = Node(node.key, attrs, [], node.line, node.file, parent)
  new.children = [_copy(c, new, suffix) for c in node.children]
  return new
