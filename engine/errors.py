"""Exceptions raised by the engine.

Every error a user can trigger is an `Error`. Compile errors carry where the problem is (file,
line, element, attribute) so the message points at the offending XML, like MuJoCo's
"Error: ... Element 'geom', line 12" messages.
"""


class Error(Exception):
  """Base class of every engine error."""


class CompileError(Error):
  """Invalid model description (MJCF syntax, unknown names, bad values, unsupported features).

  Attributes:
    msg: the bare message, without location.
    file: file name of the offending XML (None for a string model).
    line: line number in that file (None when unknown).
    element: tag of the offending element (None when not element-specific).
    attribute: name of the offending attribute (None when not attribute-specific).
  """

  def __init__(self, msg, file=None, line=None, element=None, attribute=None):
    self.msg = msg
    self.file = file
    self.line = line
    self.element = element
    self.attribute = attribute
    super().__init__(self._format())

  def _format(self):
    where = []
    if self.element:
      where.append(f"element '{self.element}'")
    if self.attribute:
      where.append(f"attribute '{self.attribute}'")
    if self.line is not None:
      where.append(f"line {self.line}")
    if self.file:
      where.append(f"file '{self.file}'")
    if not where:
      return self.msg
    return f"{self.msg} ({', '.join(where)})"


class UnsupportedError(CompileError):
  """A valid MJCF feature this engine does not implement yet."""


class FatalError(Error):
  """Unrecoverable runtime error (MuJoCo's mju_error)."""


class UnexpectedError(Error):
  """An internal inconsistency (the bindings' mujoco.UnexpectedError); report it as a bug."""


class PhysicsError(Error, RuntimeError):
  """The simulation state became invalid (dm_control's `control.PhysicsError`).

  Attributes:
    warnings: the mjtWarning kinds raised during the checked block.
  """

  def __init__(self, message, warnings=()):
    super().__init__(message)
    self.warnings = tuple(warnings)


class RenderingUnavailableError(Error, RuntimeError):
  """Rendering was requested but no renderer can run here; the message says why."""
