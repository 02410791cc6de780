"""Python-callable views of engine modules for tests.

Engine helpers (`@jit`) have no entry for calls from Python (engine/_jit.py); a test that
checks one directly gets a cached, Python-callable version through these views. Stages and
plain Python functions pass through unchanged.
"""

from engine import _jit


class module:
  """`module(engine.math).mju_dot(a, b)` calls a Python-callable version of the helper."""

  def __init__(self, mod):
    self._mod = mod

  def __getattr__(self, name):
    return callable_(getattr(self._mod, name))


def callable_(fn):
  """The helper `fn` made callable from Python (anything else unchanged)."""
  if _jit.is_helper(fn):
    return _jit.python_callable(fn)
  return fn
