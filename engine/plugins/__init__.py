"""MuJoCo's first-party engine plugins, reimplemented on engine.plugin's API.

They register on first lookup (engine.plugin.find_plugin of a "mujoco." name), so a model
naming them loads without setup, as with the mujoco package. Callbacks here compile apart from
the engine (engine/plugin.py); a callback's cache follows its own file only, so helpers it
calls live in the same file or in the engine proper.
"""


def register_all():
  """Register every first-party plugin (idempotent)."""
  from engine.plugins import pid
  pid.register()
