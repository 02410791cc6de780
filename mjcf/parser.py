"""MJCF text or files -> the object model (`mjcf.from_xml_string`, `from_file`, `from_path`).

<include> elements are expanded where they appear (the included file's children replace it, as
MuJoCo does), reading the file from the assets dict first and then relative to the model
directory. Attribute values are stored as written: defaults are not applied. Several sections
of one kind under <mujoco> (two <asset> blocks, say) merge into the model's single section.
"""

import os
import posixpath
import zipfile

from lxml import etree

from engine.compiler import assets as engine_assets
from mjcf import constants
from mjcf import debugging
from mjcf import element as element_mod


def from_xml_string(
  xml_string, escape_separators=False, model_dir="", resolve_references=True, assets=None
):
  """Parses MJCF text into a RootElement.

  Args:
    xml_string: the model (str or bytes).
    escape_separators: replace '/' in identifiers and references by '\\' instead of failing.
    model_dir: directory of the model; includes and asset files are read relative to it.
    resolve_references: turn names in reference attributes into the elements they name.
    assets: {file name: bytes} searched before the disk (includes and asset files).
  """
  if isinstance(xml_string, str):
    xml_string = xml_string.encode()
  return _parse(
    _xml_root(xml_string), escape_separators, model_dir or "", resolve_references, assets
  )


def from_file(
  file_handle, escape_separators=False, model_dir="", resolve_references=True, assets=None
):
  """Parses an MJCF file into a RootElement; see from_xml_string for the other arguments.

  Args:
    file_handle: an open file (text or binary) or any object with read(), or a path (as
      lxml's parse accepts, or a name with a resource provider's prefix); a path with no
      `model_dir` makes its directory the model directory.
  """
  if hasattr(file_handle, "read"):
    data = file_handle.read()
  else:
    path = os.fspath(file_handle)
    data = engine_assets.read_resource(path)
    model_dir = model_dir or engine_assets.resource_dir(path)
  return from_xml_string(data, escape_separators, model_dir, resolve_references, assets)


def from_path(path, escape_separators=False, resolve_references=True, assets=None, model_dir=None):
  """Parses an MJCF file into a RootElement; its directory is the model directory.

  `path` may name a resource of a registered provider ("zip:models/robot.xml", a "data:" URI):
  the model is read through it and its relative file names resolve against the provider's
  directory (engine.register_resource_provider).
  """
  path = os.fspath(path)
  if model_dir is None:
    model_dir = engine_assets.resource_dir(path)
  data = engine_assets.read_resource(path)
  return from_xml_string(data, escape_separators, model_dir, resolve_references, assets)


def from_zip(path, model_file="model.xml", escape_separators=False, resolve_references=True):
  """Parses a zipped model (as export_with_assets_as_zip writes it) into a RootElement.

  The other files of the archive are the model's assets, named relative to the XML file's
  folder.

  Args:
    path: the zip file (a path or an open binary file).
    model_file: which XML file is the model when the archive holds several (compared with the
      archive names, e.g. 'arm/arm.xml'); ignored when there is only one.
    escape_separators, resolve_references: as in from_xml_string.

  Raises:
    ValueError: `path` is not a zip file, holds no XML file, or holds several and none is
      named `model_file`.
  """
  if not zipfile.is_zipfile(path):
    raise ValueError(f"File {path} is not a zip file.")
  if hasattr(path, "seek"):
    path.seek(0)
  with zipfile.ZipFile(path, "r") as archive:
    names = [n for n in archive.namelist() if not n.endswith("/")]
    xml_files = [n for n in names if n.endswith(".xml")]
    if not xml_files:
      raise ValueError(f"No XML file found in {path}.")
    if len(xml_files) == 1:
      xml_name = xml_files[0]
    elif model_file in xml_files:
      xml_name = model_file
    else:
      raise ValueError(f"Multiple XML files found in {path}, but none named {model_file}.")
    folder = posixpath.dirname(xml_name)
    assets = {posixpath.relpath(n, folder or "."): archive.read(n) for n in names if n != xml_name}
    xml_string = archive.read(xml_name)
  return from_xml_string(xml_string, escape_separators, "", resolve_references, assets)


def _xml_root(data):
  parser = etree.XMLParser(remove_comments=True, remove_pis=True, resolve_entities=False)
  return etree.fromstring(data, parser)


def _read_include(name, model_dir, assets, line, include_dir=""):
  """(bytes, path relative to the model directory) of an include file.

  As MuJoCo: relative to the model directory first, then to the folder of the file holding the
  <include> (so nested includes may name their siblings); a resource provider matching the
  combined name, then the assets dict, then the disk.
  """
  tries = [name]
  if include_dir and not engine_assets.is_absolute(name):
    tries.append(engine_assets.combine_path(include_dir, name))
  paths = [engine_assets.combine_path(model_dir, t) for t in tries]
  failed = []
  for relative, path in zip(tries, paths):
    if engine_assets.find_resource_provider(path):
      try:
        return engine_assets.read_resource(path), relative
      except FileNotFoundError as e:
        failed.append(f"{e}; ")
  for relative in tries:
    for key in (relative, os.path.normpath(relative)):
      if assets and key in assets:
        data = assets[key]
        return (data.encode() if isinstance(data, str) else data), relative
  for relative, path in zip(tries, paths):
    if not engine_assets.find_resource_provider(path) and os.path.isfile(path):
      with open(path, "rb") as f:
        return f.read(), relative
  raise FileNotFoundError(
    f"line {line}: cannot read include file {name!r} ({''.join(failed)}tried {paths})"
  )


def _expand_includes(xml, model_dir, assets, seen, include_dir=""):
  """Replaces every <include file=...> below `xml` by the children of the included file."""
  for child in list(xml):
    if not isinstance(child.tag, str):
      continue
    if child.tag == "include":
      name = child.get("file")
      if not name:
        raise ValueError(f"line {child.sourceline}: <include> needs a 'file' attribute")
      data, relative = _read_include(name, model_dir, assets, child.sourceline, include_dir)
      key = os.path.normpath(relative)
      if key in seen:
        raise ValueError(f"line {child.sourceline}: file {name!r} is included twice")
      seen.add(key)
      included = _xml_root(data)
      _expand_includes(included, model_dir, assets, seen, engine_assets.resource_dir(relative))
      index = list(xml).index(child)
      xml.remove(child)
      for k, grandchild in enumerate([c for c in included if isinstance(c.tag, str)]):
        xml.insert(index + k, grandchild)
    else:
      _expand_includes(child, model_dir, assets, seen, include_dir)


# attributes that hold paths or free text: escape_separators leaves their '/' alone (as dm_control)
_UNESCAPED = frozenset(
  {
    "data",
    "file",
    "meshdir",
    "assetdir",
    "texturedir",
    "content_type",
    "fileleft",
    "fileright",
    "fileback",
    "filefront",
    "fileup",
    "filedown",
    "plugin",
    "key",
    "value",
  }
)


def _escape(value):
  sep, esc = constants.PREFIX_SEPARATOR, constants.PREFIX_SEPARATOR_ESCAPE
  return value.replace(esc, esc * 2).replace(sep, esc)


def _parse(xml, escape_separators, model_dir, resolve_references, assets):
  if xml.tag != "mujoco":
    raise ValueError(f"the root element of an MJCF model must be <mujoco>, got <{xml.tag}>")
  _expand_includes(xml, model_dir, assets, set())
  with debugging.freeze_current_stack_trace():
    root = element_mod.RootElement(model=xml.get("model"), model_dir=model_dir, assets=assets)
    # asset directories first: files are loaded when their attribute is set
    for compiler in xml.findall("compiler"):
      for name in ("meshdir", "texturedir", "assetdir"):
        if compiler.get(name):
          root.compiler._attrs[name] = compiler.get(name)
    generated = None if escape_separators else _Generated()
    _parse_children(xml, root, escape_separators, generated)
    if generated is not None:
      generated.resolve()
    if resolve_references:
      root.resolve_references()
  return root


def _overlay(element, attributes):
  """A repeated section's partial arrays read over the values already set, as MuJoCo does."""
  out = dict(attributes)
  for name, text in attributes.items():
    aspec = element.spec.attributes.get(name)
    if aspec is None or aspec.kind != "real_array":
      continue
    old = element.get_attributes().get(name)
    words = text.split()
    if old is not None and len(words) < len(old):
      out[name] = words + [repr(float(v)) for v in old[len(words) :]]
  return out


class _Generated:
  """What PyMJCF's own XML output adds, read back as the model it was written from.

  Exported XML names the model's global defaults class '/' (under the top <default>), names
  unnamed elements '//unnamed_<namespace>_<i>' and refers to them by those names (see
  docs/mjcf.md). Without escape_separators those names would be rejected for their '/', so the
  class '/' is read as the global defaults (a reference to it is dropped, or is 'main' where a
  childclass would otherwise apply), a generated name is dropped (the element is unnamed again)
  and references to it become the element itself.
  """

  def __init__(self):
    self.elements = {}  # generated name -> element
    self.references = []  # (element, attribute, generated name, line)

  @staticmethod
  def is_generated_name(value):
    return value.startswith(_UNNAMED_PREFIX)

  def take(self, parent, tag, attributes, line):
    """Removes generated names from `attributes`; returns the element's own generated name."""
    spec = parent.spec.children.get(tag)
    if spec is None:
      return None
    own = None
    for name in list(attributes):
      value = attributes[name]
      aspec = spec.attributes.get(name)
      if aspec is None:
        continue
      if aspec.kind == "identifier" and self.is_generated_name(value):
        own = attributes.pop(name)
      elif aspec.kind in ("reference", "indirect"):
        if aspec.namespace == constants.DEFAULT and value == constants.PREFIX_SEPARATOR:
          # the global class: implied unless a childclass around says otherwise
          if name == constants.CLASS and not _in_childclass(parent):
            del attributes[name]
          else:
            attributes[name] = "main"
        elif self.is_generated_name(value):
          # a stand-in (required references must be set), replaced by the element in resolve()
          self.references.append((name, value, line))
          attributes[name] = _escape(value)
    return own

  def resolve(self):
    for element, name, value, line in self.references:
      target = self.elements.get(value)
      if target is None:
        raise ValueError(
          f"line {line}: <{element.tag}> {name}={value!r} names no element of the model"
        )
      element._set_attribute(name, target)


_UNNAMED_PREFIX = constants.PREFIX_SEPARATOR * 2 + "unnamed_"


def _in_childclass(element):
  """Whether `element` or an element around it sets a childclass."""
  while element is not None:
    if constants.CHILDCLASS in element.spec.attributes and element.childclass is not None:
      return True
    element = element.parent
  return False


def _is_global_class(xml, parent):
  """Whether `xml` is the <default class="/"> PyMJCF writes for a model's global defaults."""
  return (
    xml.tag == constants.DEFAULT
    and xml.get(constants.CLASS) == constants.PREFIX_SEPARATOR
    and parent.tag == constants.DEFAULT
    and isinstance(parent.parent, element_mod.RootElement)
  )


def _parse_children(xml, parent, escape_separators, generated=None):
  for child in xml:
    if not isinstance(child.tag, str):
      continue
    if generated is not None and _is_global_class(child, parent):
      _parse_children(child, parent, escape_separators, generated)
      continue
    attributes = dict(child.attrib)
    own_name = None
    if escape_separators:
      attributes = {k: v if k in _UNESCAPED else _escape(v) for k, v in attributes.items()}
    elif generated is not None:
      references_before = len(generated.references)
      own_name = generated.take(parent, child.tag, attributes, child.sourceline)
    try:
      cspec = parent._check_child(child.tag)
      if cspec.repeated or (cspec.on_demand and parent.get_children(child.tag) is None):
        element = parent.add(child.tag, **attributes)
      else:
        element = parent.get_children(child.tag)
        element.set_attributes(**_overlay(element, attributes))
    except (ValueError, AttributeError, OSError) as e:
      raise type(e)(
        f"line {child.sourceline}: error while parsing element <{child.tag}>: {e}"
      ) from None
    if generated is not None and not escape_separators:
      if own_name is not None:
        generated.elements[own_name] = element
      for k in range(references_before, len(generated.references)):
        generated.references[k] = (element,) + generated.references[k]
    _parse_children(child, element, escape_separators, generated)
