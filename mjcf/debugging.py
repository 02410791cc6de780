"""Debug mode: remember which Python line created or last changed each element and attribute.

Enable it with the environment variable NUMJOCO_MJCF_DEBUG=1 (read at import) or with
`enable_debug_mode()`. Elements then record the user's stack when they are created and when
each attribute is assigned, and `mjcf.Physics.from_mjcf_model` adds those locations to the
engine's compile errors, so an error in generated XML points back at the code that wrote it.
Recording costs a stack walk per change, so it is off by default.
"""

import contextlib
import linecache
import os
import sys

from lxml import etree

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_SKIPPED_FILES = {os.path.abspath(contextlib.__file__)}
_ENV_VAR = "NUMJOCO_MJCF_DEBUG"

_state = {
  "debug": os.environ.get(_ENV_VAR, "").strip().lower() not in ("", "0", "false", "no"),
  "frozen": None,
  "dump_dir": os.environ.get(_ENV_VAR + "_DUMP_DIR", ""),
}


def debug_mode():
  """Whether debug mode is on."""
  return _state["debug"]


def enable_debug_mode():
  """Turns debug mode on (elements created from now on record where they come from)."""
  _state["debug"] = True


def disable_debug_mode():
  _state["debug"] = False


def get_full_dump_dir():
  """Directory compile errors dump full debug information to in debug mode ('' for none)."""
  return _state.get("dump_dir", "")


def set_full_dump_dir(dump_path):
  """Sets that directory (the environment variable NUMJOCO_MJCF_DEBUG_DUMP_DIR sets it too)."""
  _state["dump_dir"] = dump_path or ""


class StackFrame(tuple):
  """(filename, line number, function name) of one user frame.

  Also readable by dm_control's StackTraceEntry names: `line_number`, `function_name`, `text`
  (the source line).
  """

  __slots__ = ()

  def __new__(cls, filename, lineno, name):
    return super().__new__(cls, (filename, lineno, name))

  @property
  def filename(self):
    return self[0]

  @property
  def lineno(self):
    return self[1]

  @property
  def name(self):
    return self[2]

  @property
  def line_number(self):
    return self[1]

  @property
  def function_name(self):
    return self[2]

  @property
  def text(self):
    return linecache.getline(self[0], self[1]).strip()

  def __str__(self):
    return f"{self[0]}:{self[1]} in {self[2]}"


def get_current_stack_trace(limit=8):
  """The caller's stack outside this package, innermost last (at most `limit` frames)."""
  if _state["frozen"] is not None:
    return _state["frozen"]
  frames = []
  f = sys._getframe(1)
  while f is not None and len(frames) < limit:
    filename = f.f_code.co_filename
    path = os.path.abspath(filename)
    if not path.startswith(_PACKAGE_DIR + os.sep) and path not in _SKIPPED_FILES:
      frames.append(StackFrame(filename, f.f_lineno, f.f_code.co_name))
    f = f.f_back
  frames.reverse()
  return frames


@contextlib.contextmanager
def freeze_current_stack_trace():
  """Within the block every record uses the stack at entry (one user call, many elements)."""
  if not debug_mode() or _state["frozen"] is not None:
    yield
    return
  _state["frozen"] = get_current_stack_trace()
  try:
    yield
  finally:
    _state["frozen"] = None


def format_stack(stack):
  """The innermost user frame of a recorded stack, as 'file:line in function'."""
  if not stack:
    return "unknown location"
  return str(stack[-1])


class DebugContext:
  """Maps lines of generated XML back to the elements that produced them."""

  def __init__(self):
    self._pending = []
    self.line_elements = {}
    self.xml_string = None

  def register(self, xml_element, mjcf_element):
    """Called by Element.to_xml for every XML element it generates."""
    self._pending.append((xml_element, mjcf_element))

  def commit_xml_string(self, xml_string):
    """Records the line of every registered element in the final XML text."""
    self.xml_string = xml_string
    by_id = {id(x): e for x, e in self._pending}
    generated = [x for x, _ in self._pending]
    parsed = etree.fromstring(xml_string.encode())
    # the generated tree and its reparse have the same shape: walk both in document order
    gen_root = generated[-1]
    while gen_root.getparent() is not None:
      gen_root = gen_root.getparent()
    for g, p in zip(gen_root.iter(), parsed.iter()):
      element = by_id.get(id(g))
      if element is not None and isinstance(p.tag, str):
        self.line_elements[p.sourceline] = element
    return xml_string

  @property
  def debug_mode(self):
    return debug_mode()

  @property
  def default_dump_dir(self):
    return get_full_dump_dir()

  def dump_full_debug_info_to_disk(self, dump_dir=None):
    """Writes the generated XML (model.xml) and, for each of its elements, where the element
    was created and each attribute last set (<line>.dump, by XML line).

    Raises:
      ValueError: neither `dump_dir` nor the global dump directory is set.
    """
    dump_dir = dump_dir or self.default_dump_dir
    if not dump_dir:
      raise ValueError("`dump_dir` is not specified")
    os.makedirs(dump_dir, exist_ok=True)
    with open(os.path.join(dump_dir, "model.xml"), "w") as f:
      f.write(self.xml_string or "")
    for line, element in sorted(self.line_elements.items()):
      out = [f"line {line}: {element}", f"created at {format_stack(element.get_init_stack())}"]
      for name, stack in element.get_last_modified_stacks_for_all_attributes().items():
        if stack:
          value = element.get_attribute_xml_string(name)
          what = f'{name}="{value}"' if value is not None else f"{name} was CLEARED"
          out.append(f"attribute {what} last set at {format_stack(stack)}")
      with open(os.path.join(dump_dir, f"{line}.dump"), "w") as f:
        f.write("\n".join(out) + "\n")

  def describe(self, line, attribute=None):
    """Where the element on `line` of the generated XML (and its attribute) came from."""
    element = self.line_elements.get(line)
    if element is None:
      return None
    lines = [f"the element was created at {format_stack(element.get_init_stack())}"]
    if attribute is not None:
      stacks = element.get_last_modified_stacks_for_all_attributes()
      stack = stacks.get(attribute)
      if stack:
        lines.append(f"attribute '{attribute}' was last set at {format_stack(stack)}")
    xml = element.to_xml_string(self_only=True, pretty_print=False)
    return f"MJCF element {xml}: " + "; ".join(lines)
