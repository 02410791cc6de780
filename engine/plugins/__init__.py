"""MuJoCo's first-party engine plugins, reimplemented on engine.plugin's API.

- `pid`: the `mujoco.pid` actuator.
- `cable`: the `mujoco.elasticity.cable` passive force (bending and twisting of the body chains
  that <composite type="cable"> makes).
- `sdf_shapes`: the signed distance fields of the `mujoco.sdf.*` plugins (torus, bolt, nut,
  gear, bowl): config parsing, distance, gradient and bounding box; `marching_cubes`: the mesh
  MuJoCo's compiler builds for `<mesh><plugin instance="..."/></mesh>` from such a field (SDF
  collision and the compiler's use of them are not wired yet).

They register on first lookup (engine.plugin.find_plugin of a "mujoco." name), so a model
naming them loads without setup, as with the mujoco package. Callbacks here compile apart from
the engine (engine/plugin.py); a callback's cache follows its own file only, so helpers it
calls live in the same file or in the engine proper. Nothing here imports `mujoco`.
"""


def register_all():
  """Register every first-party plugin that is implemented (idempotent)."""
  from engine.plugins import cable
  from engine.plugins import pid
  pid.register()
  cable.register()
