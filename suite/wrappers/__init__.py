"""Environment wrappers (dm_control's `suite.wrappers`): action_noise, action_scale,
mujoco_profiling and pixels."""
