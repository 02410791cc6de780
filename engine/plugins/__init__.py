"""MuJoCo's first-party engine plugins, reimplemented on engine.plugin's API.

- `pid`: the `mujoco.pid` actuator; `touch_grid`: the `mujoco.sensor.touch_grid` sensor;
  `cable`: the `mujoco.elasticity.cable` passive force (bending and twisting of the body chains
  that <composite type="cable"> makes).
- `sdf`: the `mujoco.sdf.*` plugins (torus, bolt, nut, gear, bowl), whose fields (config
  parsing, distance, gradient and bounding box) are engine/collision/sdf_shapes.py's;
  `marching_cubes`: the mesh MuJoCo's compiler builds for `<mesh><plugin instance="..."/></mesh>`
  from such a field.

They register on first lookup (engine.plugin.find_plugin of a "mujoco." name; FIRST_PARTY
lists them), so a model
naming them loads without setup, as with the mujoco package. Callbacks here compile apart from
the engine (engine/plugin.py); a callback's cache follows its own file only, so helpers it
calls live in the same file or in the engine proper. Nothing here imports `mujoco`.
"""

import numpy as np

# modules whose SPEC (engine.plugin.register_plugin's arguments) registers a plugin
FIRST_PARTY = (
  "engine.plugins.pid",
  "engine.plugins.touch_grid",
  "engine.plugins.cable",
  "engine.plugins.sdf",
)
# MuJoCo 3.17's first-party plugins: a model naming one we have not implemented is refused as
# unsupported (not as an unknown plugin)
MUJOCO_PLUGINS = (
  "mujoco.pid",
  "mujoco.elasticity.cable",
  "mujoco.elasticity.shell",
  "mujoco.elasticity.solid",
  "mujoco.elasticity.membrane",
  "mujoco.sensor.touch_grid",
  "mujoco.sdf.torus",
  "mujoco.sdf.bolt",
  "mujoco.sdf.nut",
  "mujoco.sdf.gear",
  "mujoco.sdf.bowl",
)


def config_values(m, instance, attributes) -> dict:
  """{attribute: value} of plugin instance `instance` of m, read from m.plugin_attr (the
  values of `attributes` in order, each null-terminated; '' where the model gives none)."""
  attr = np.asarray(m.plugin_attr, np.int8).view(np.uint8).tobytes()
  values = attr[int(m.plugin_attradr[instance]) :].split(b"\0")
  return {a: values[k].decode() for k, a in enumerate(attributes)}
