"""MJCF text -> a validated tree of typed elements (Node), with <include> expanded.

lxml parses the text with line numbers; every element is checked against the schema (allowed
child, cardinality, known attribute, required attributes, mutually exclusive attributes) and its
attributes are converted to typed values. Every error names the element, attribute, line and
(for included files) the file, like MuJoCo's "XML Error" messages.

Partial arrays (e.g. friction="0.5" for a 3-vector) are kept as given; defaults.py completes
them from the default class, as MuJoCo reads them over the class values.
"""

import contextlib
import dataclasses
import math
import os
import sys

from lxml import etree

from engine.compiler import assets as afile
from engine.compiler import schema
from engine.errors import CompileError


@dataclasses.dataclass(eq=False)
class Node:
  """One parsed MJCF element.

  Attributes:
    key: schema key of the element (see schema.ELEMENTS).
    attrs: attributes given in the XML, converted (scalars, tuples, ints, strings).
    children: child Nodes in document order (includes expanded).
    line: line number in its file.
    file: file the element came from (None for the main string model).
    parent: enclosing Node (None for the root).
    tag: the XML tag.
  """

  key: str
  attrs: dict
  children: list
  line: int | None
  file: str | None
  parent: "Node | None" = None
  tag: str = ""

  def __post_init__(self):
    self.tag = schema.ELEMENTS[self.key].tag

  @property
  def spec(self):
    return schema.ELEMENTS[self.key]

  def error(self, msg, attribute=None, cls=CompileError):
    """An exception located at this element."""
    return cls(msg, file=self.file, line=self.line, element=self.tag, attribute=attribute)

  def find(self, tag):
    """Children with the given tag."""
    return [c for c in self.children if c.tag == tag]


class _Reader:
  """Reads included files through the asset store (resource providers, the assets dict, then
  the model dir).

  Like MuJoCo, a relative include file is looked up relative to the model file's folder first
  and then relative to the folder of the file holding the <include>, so nested includes may
  name their siblings.
  """

  def __init__(self, assets, model_dir):
    self.store = afile.AssetStore(assets, model_dir or "")
    self.included = set()

  def read(self, name, node_line, node_file, include_dir=""):
    """(bytes, path relative to the model folder) of an include file."""
    tries = [name]
    if include_dir and not afile.is_absolute(name):
      tries.append(afile.combine_path(include_dir, name))
    errors = []
    for full in tries:
      try:
        data = self.store.read(full)
      except afile.ResourceError as e:
        raise afile.ResourceCompileError(
          f"could not read include file '{name}': {e}",
          file=node_file,
          line=node_line,
          element="include",
          attribute="file",
        ) from e
      except OSError as e:
        errors.append(str(e))
        continue
      if os.path.normpath(full) in self.included:
        raise CompileError(
          f"file '{name}' already included",
          file=node_file,
          line=node_line,
          element="include",
          attribute="file",
        )
      self.included.add(os.path.normpath(full))
      return data, full
    raise afile.MissingFileError(
      f"could not read include file '{name}': {'; '.join(errors)}",
      file=node_file,
      line=node_line,
      element="include",
      attribute="file",
    )


def _repair_tinyxml(data):
  """Rewrites the two things tinyxml2 (MuJoCo's XML reader) accepts and lxml rejects.

  '--' inside a comment (and a comment ending in '--->') becomes '- ', and an attribute that
  follows a quoted value without whitespace (size="1"type="box") gets a space. Newlines are
  never added or removed, so line numbers stay those of the file.
  """
  out = bytearray()
  i, n = 0, len(data)
  while i < n:
    j = data.find(b"<", i)
    if j < 0:
      out += data[i:]
      break
    out += data[i:j]
    if data.startswith(b"<!--", j):
      end = data.find(b"-->", j + 4)
      if end < 0:
        out += data[j:]
        break
      body = data[j + 4 : end].replace(b"--", b"- ")
      if body.endswith(b"-"):
        body = body[:-1] + b" "
      out += b"<!--" + body + b"-->"
      i = end + 3
      continue
    for opener, closer in ((b"<![CDATA[", b"]]>"), (b"<?", b"?>"), (b"<!", b">")):
      if data.startswith(opener, j):
        end = data.find(closer, j + len(opener))
        end = n if end < 0 else end + len(closer)
        out += data[j:end]
        i = end
        break
    else:
      # a tag: copy it, adding a space after a quoted value glued to the next name
      k = j
      quote = None
      while k < n:
        c = data[k : k + 1]
        out += c
        k += 1
        if quote:
          if c == quote:
            quote = None
            nxt = data[k : k + 1]
            if nxt and not nxt.isspace() and nxt not in (b"/", b">", b"?"):
              out += b" "
        elif c in (b'"', b"'"):
          quote = c
        elif c == b">":
          break
      i = k
  return bytes(out)


def _xml_root(data, file):
  """Parses bytes/str with lxml; malformed XML raises CompileError with the line.

  XML that lxml rejects is retried once after _repair_tinyxml, so files MuJoCo reads load
  here too; an error of the retry is reported (lines are unchanged by the repair).
  """
  if isinstance(data, str):
    data = data.encode()
  parser = etree.XMLParser(
    remove_comments=True, remove_pis=True, resolve_entities=False, huge_tree=True
  )
  try:
    return etree.fromstring(data, parser)
  except etree.XMLSyntaxError:
    pass
  try:
    return etree.fromstring(_repair_tinyxml(data), parser)
  except etree.XMLSyntaxError as e:
    line = e.lineno if e.lineno else None
    raise CompileError(f"malformed XML: {e.msg}", file=file, line=line) from None


def _number_list(node_tag, attr, text, line, file, kind):
  """Splits and converts a list of numbers."""
  words = text.split()
  out = []
  for w in words:
    try:
      if kind == "int":
        v = int(w)
        big = not -(2**31) <= v < 2**31
      else:
        v = float(w)
        if math.isnan(v):
          raise ValueError
        big = math.isinf(v)
    except ValueError:
      kindname = "integer" if kind == "int" else "number"
      raise CompileError(
        f"invalid {kindname} '{w}' in value '{text}'",
        file=file,
        line=line,
        element=node_tag,
        attribute=attr.name,
      ) from None
    if big:
      raise CompileError(
        f"number '{w}' is too large in value '{text}'",
        file=file,
        line=line,
        element=node_tag,
        attribute=attr.name,
      )
    out.append(v)
  return out


# flag sets whose keywords must be listed in canonical order (as MuJoCo requires)
_ORDERED_FLAGS = [schema.KEYWORDS["condata"], schema.KEYWORDS["raydata"]]


def convert_attr(tag, attr, text, line=None, file=None):
  """Converts one attribute string to its typed value per the schema (public for mjcf/)."""

  def err(msg):
    return CompileError(msg, file=file, line=line, element=tag, attribute=attr.name)

  kind = attr.kind
  if kind in ("real", "int"):
    vals = _number_list(tag, attr, text, line, file, kind)
    if attr.nmin is None:
      if len(vals) != 1:
        raise err(f"expected one value, got '{text}'")
      return vals[0]
    if attr.nmax != -1 and len(vals) > attr.nmax:
      raise err(f"too many values in '{text}' (at most {attr.nmax})")
    if len(vals) < max(attr.nmin, 1) and not (attr.nmax == -1 and attr.nmin == 0):
      if attr.nmin == attr.nmax:
        raise err(f"expected {attr.nmin} values, got {len(vals)} in '{text}'")
      raise err(f"expected at least {max(attr.nmin, 1)} values, got {len(vals)} in '{text}'")
    return tuple(vals)
  if kind in ("bool", "kw"):
    word = text.strip()
    if word not in attr.keywords:
      allowed = ", ".join(sorted(set(attr.keywords)))
      raise err(f"invalid keyword '{text}' (allowed: {allowed})")
    return attr.keywords[word]
  if kind == "flags":
    val = 0
    words = text.split()
    inputs = attr.keywords is schema.KEYWORDS["input"]
    if not words:
      if inputs:
        return None  # an empty input list means the attribute is absent, as in MuJoCo
      raise err("empty keyword list")
    last = 0
    for word in words:
      if word not in attr.keywords or (inputs and word == "none" and len(words) > 1):
        allowed = ", ".join(sorted(set(attr.keywords)))
        raise err(
          f"invalid keyword '{word}' (allowed: {allowed}; 'none' only alone)"
          if inputs
          else f"invalid keyword '{word}' (allowed: {allowed})"
        )
      bit = attr.keywords[word]
      if inputs and bit & val:
        raise err(f"duplicate keyword '{word}'")
      if inputs and bit < last:
        raise err("inputs must be listed in canonical order [pos, vel, ff, voltage, pressure]")
      if attr.keywords in _ORDERED_FLAGS and bit <= last:
        order = ", ".join(attr.keywords)
        raise err(f"keywords must be in order: {order}")
      last = bit
      val |= bit
    return val
  return text


# MuJoCo's XML parser (tinyxml2) refuses elements nested this deep, includes counted
MAX_DEPTH = 500


class _Builder:
  """Walks the lxml tree, expands includes, validates and converts into Nodes."""

  def __init__(self, reader):
    self.reader = reader
    self.dirs = {None: ""}  # file -> its folder relative to the model folder
    self.depth = 0

  def element(self, xml, key, parent, file):
    spec = schema.ELEMENTS[key]
    line = xml.sourceline
    if self.depth + 1 >= MAX_DEPTH:
      raise CompileError(
        f"XML parse error: element nesting is too deep (at most {MAX_DEPTH - 1} levels, as "
        "MuJoCo's parser)",
        file=file,
        line=line,
        element=spec.tag,
      )
    self.depth += 1
    try:
      return self._element(xml, key, spec, line, parent, file)
    finally:
      self.depth -= 1

  def _element(self, xml, key, spec, line, parent, file):
    node = Node(key, {}, [], line, file, parent)

    # attributes
    for name, text in xml.attrib.items():
      attr = spec.attrs.get(name)
      if attr is None:
        raise CompileError(
          f"unrecognized attribute '{name}'", file=file, line=line, element=spec.tag, attribute=name
        )
      value = convert_attr(spec.tag, attr, text, line, file)
      if value is not None:
        node.attrs[name] = value
    for attr in spec.attrs.values():
      if attr.required and attr.name not in node.attrs:
        raise CompileError(
          f"required attribute '{attr.name}' missing",
          file=file,
          line=line,
          element=spec.tag,
          attribute=attr.name,
        )
    for group in spec.exclusive:
      given = [a for a in group if a in node.attrs]
      if len(given) > 1:
        raise CompileError(
          f"attributes {', '.join(given)} cannot be used together",
          file=file,
          line=line,
          element=spec.tag,
          attribute=given[1],
        )

    # children
    self.children(xml, node, file)
    counts = {}
    for c in node.children:
      counts[c.tag] = counts.get(c.tag, 0) + 1
    for tag, n in counts.items():
      if n > 1 and spec.children[tag][1] == "?":
        raise CompileError(
          f"unique element '{tag}' found {n} times", file=file, line=line, element=spec.tag
        )
    return node

  def children(self, xml, node, file):
    spec = node.spec
    for c in xml:
      if not isinstance(c.tag, str):
        continue
      tag = c.tag
      if tag == "include":
        self.include(c, node, file)
        continue
      found = spec.children.get(tag)
      if found is None:
        raise CompileError(
          f"unrecognized element '{tag}' inside '{spec.tag}'",
          file=file,
          line=c.sourceline,
          element=tag,
        )
      node.children.append(self.element(c, found[0], node, file))

  def include(self, xml, node, file):
    line = xml.sourceline
    for name in xml.attrib:
      if name != "file":
        raise CompileError(
          f"unrecognized attribute '{name}'",
          file=file,
          line=line,
          element="include",
          attribute=name,
        )
    if "file" not in xml.attrib:
      raise CompileError(
        "required attribute 'file' missing",
        file=file,
        line=line,
        element="include",
        attribute="file",
      )
    if any(isinstance(c.tag, str) for c in xml):
      raise CompileError(
        "include element cannot have children", file=file, line=line, element="include"
      )
    name = xml.attrib["file"]
    data, full = self.reader.read(name, line, file, self.dirs.get(file, ""))
    root = _xml_root(data, full)
    if not any(isinstance(c.tag, str) for c in root):
      raise CompileError(
        f"empty include file '{name}'", file=file, line=line, element="include", attribute="file"
      )
    self.dirs[full] = afile.resource_dir(full)
    self.children(root, node, full)


def _read_model_resource(path, assets):
  """(bytes, model directory, file name) of a model file named with a provider's prefix.

  The provider first, then the assets dict under the name relative to the model directory (as
  for a model on disk); the directory is the provider's (resource_dir). The file name is the
  name relative to that directory; a resource that has no directory of its own (a data URI)
  has none, like a model given as text.
  """
  try:
    model_dir = afile.resource_dir(path)
    file = path[len(model_dir) :] if path.startswith(model_dir) else ""
    if not file or "/" in file or "\\" in file:
      file = None
    try:
      return afile.read_resource(path), model_dir, file
    except FileNotFoundError as e:
      if assets and file is not None and file in assets:
        return assets[file], model_dir, file
      raise afile.MissingFileError(f"could not read model file: {e}") from None
  except afile.ResourceError as e:
    raise afile.ResourceCompileError(f"could not read model file: {e}") from e


def parse(xml=None, path=None, assets=None):
  """Parses MJCF into a validated Node tree.

  Args:
    xml: model text (str or bytes); or None to read `path`.
    path: model file; its directory resolves includes and asset files.
    assets: {file name: bytes} searched before the disk.

  Returns:
    (root Node, model directory as given in `path` ('' for the current directory), or None
    for a model given as text).
  """
  if (xml is None) == (path is None):
    raise ValueError("give exactly one of xml or path")
  model_dir = None
  file = None
  if path is not None:
    path = os.fspath(path)
    if afile.find_resource_provider(path):
      xml, model_dir, file = _read_model_resource(path, assets)
    else:
      model_dir = os.path.dirname(path)
      file = os.path.basename(path)
      if assets and file in assets:
        xml = assets[file]
      else:
        try:
          with open(path, "rb") as f:
            xml = f.read()
        except FileNotFoundError as e:
          raise afile.MissingFileError(
            f"could not read model file '{path}': {e.strerror}"
          ) from None
        except OSError as e:
          raise CompileError(f"could not read model file '{path}': {e.strerror}") from None
  root = _xml_root(xml, file)
  if root.tag != schema.ROOT:
    raise CompileError(
      f"root element must be 'mujoco', got '{root.tag}'",
      file=file,
      line=root.sourceline,
      element=root.tag,
    )
  reader = _Reader(assets, model_dir)
  if file is not None:
    reader.included.add(file)
  builder = _Builder(reader)
  with deep_recursion():
    return builder.element(root, schema.ROOT, None, file), model_dir


@contextlib.contextmanager
def deep_recursion(limit=8 * MAX_DEPTH):
  """Python's recursion limit raised to at least `limit` for the block: the parser and the
  compiler's tree walks recurse a few frames per level of an MJCF nested MAX_DEPTH deep."""
  previous = sys.getrecursionlimit()
  sys.setrecursionlimit(max(previous, limit))
  try:
    yield
  finally:
    sys.setrecursionlimit(previous)
