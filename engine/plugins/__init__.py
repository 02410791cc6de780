"""MuJoCo's first-party plugins, reimplemented.

- `engine.plugins.sdf_shapes`: the signed distance fields of the `mujoco.sdf.*` plugins
  (torus, bolt, nut, gear, bowl): config parsing, distance, gradient and bounding box.
- `engine.plugins.marching_cubes`: the mesh MuJoCo's compiler builds for
  `<mesh><plugin instance="..."/></mesh>` from such a field.

Nothing here imports `mujoco`. The compiler and the collision code are the intended callers.
"""
