"""MJCF text or files -> the object model (`mjcf.from_xml_string`, `from_file`, `from_path`).

<include> elements are expanded where they appear (the included file's children replace it, as
MuJoCo does), reading the file from the assets dict first and then relative to the model
directory. Attribute values are stored as written: defaults are not applied. Several sections
of one kind under <mujoco> (two <asset> blocks, say) merge into the model's single section.
"""

import os

from lxml import etree

from mjcf import constants
from mjcf import debugging
from mjcf import element as element_mod


def from_xml_string(xml_string, escape_separators=False, model_dir='', resolve_references=True,
                    assets=None):
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
  return _parse(_xml_root(xml_string), escape_separators, model_dir or '', resolve_references,
                assets)


def from_file(file_handle, escape_separators=False, model_dir='', resolve_references=True,
              assets=None):
  """Parses an open MJCF file (text or binary) into a RootElement; see from_xml_string."""
  return from_xml_string(file_handle.read(), escape_separators, model_dir, resolve_references,
                         assets)


def from_path(path, escape_separators=False, resolve_references=True, assets=None,
              model_dir=None):
  """Parses an MJCF file into a RootElement; its directory is the model directory."""
  path = os.fspath(path)
  if model_dir is None:
    model_dir = os.path.dirname(path)
  with open(path, 'rb') as f:
    data = f.read()
  return from_xml_string(data, escape_separators, model_dir, resolve_references, assets)


def _xml_root(data):
  parser = etree.XMLParser(remove_comments=True, remove_pis=True, resolve_entities=False)
  return etree.fromstring(data, parser)


def _read_include(name, model_dir, assets, line):
  if assets and name in assets:
    data = assets[name]
    return data.encode() if isinstance(data, str) else data
  path = os.path.join(model_dir, name)
  try:
    with open(path, 'rb') as f:
      return f.read()
  except OSError as e:
    raise FileNotFoundError(f'line {line}: cannot read include file {name!r} ({path}): '
                            f'{e.strerror}') from None


def _expand_includes(xml, model_dir, assets, seen):
  """Replaces every <include file=...> below `xml` by the children of the included file."""
  for child in list(xml):
    if not isinstance(child.tag, str):
      continue
    if child.tag == 'include':
      name = child.get('file')
      if not name:
        raise ValueError(f"line {child.sourceline}: <include> needs a 'file' attribute")
      if name in seen:
        raise ValueError(f'line {child.sourceline}: file {name!r} is included twice')
      seen.add(name)
      included = _xml_root(_read_include(name, model_dir, assets, child.sourceline))
      _expand_includes(included, model_dir, assets, seen)
      index = list(xml).index(child)
      xml.remove(child)
      for k, grandchild in enumerate([c for c in included if isinstance(c.tag, str)]):
        xml.insert(index + k, grandchild)
    else:
      _expand_includes(child, model_dir, assets, seen)


def _escape(value):
  sep, esc = constants.PREFIX_SEPARATOR, constants.PREFIX_SEPARATOR_ESCAPE
  return value.replace(esc, esc * 2).replace(sep, esc)


def _parse(xml, escape_separators, model_dir, resolve_references, assets):
  if xml.tag != 'mujoco':
    raise ValueError(f'the root element of an MJCF model must be <mujoco>, got <{xml.tag}>')
  _expand_includes(xml, model_dir, assets, set())
  with debugging.freeze_current_stack_trace():
    root = element_mod.RootElement(model=xml.get('model'), model_dir=model_dir, assets=assets)
    # asset directories first: files are loaded when their attribute is set
    for compiler in xml.findall('compiler'):
      for name in ('meshdir', 'texturedir', 'assetdir'):
        if compiler.get(name):
          root.compiler._attrs[name] = compiler.get(name)
    _parse_children(xml, root, escape_separators)
    if resolve_references:
      root.resolve_references()
  return root


def _overlay(element, attributes):
  """A repeated section's partial arrays read over the values already set, as MuJoCo does."""
  out = dict(attributes)
  for name, text in attributes.items():
    aspec = element.spec.attributes.get(name)
    if aspec is None or aspec.kind != 'real_array':
      continue
    old = element.get_attributes().get(name)
    words = text.split()
    if old is not None and len(words) < len(old):
      out[name] = words + [repr(float(v)) for v in old[len(words):]]
  return out


def _parse_children(xml, parent, escape_separators):
  for child in xml:
    if not isinstance(child.tag, str):
      continue
    attributes = dict(child.attrib)
    if escape_separators:
      attributes = {k: _escape(v) for k, v in attributes.items()}
    try:
      cspec = parent._check_child(child.tag)
      if cspec.repeated or (cspec.on_demand and parent.get_children(child.tag) is None):
        element = parent.add(child.tag, **attributes)
      else:
        element = parent.get_children(child.tag)
        element.set_attributes(**_overlay(element, attributes))
    except (ValueError, AttributeError, OSError) as e:
      raise type(e)(f'line {child.sourceline}: error while parsing element <{child.tag}>: '
                    f'{e}') from None
    _parse_children(child, element, escape_separators)
