"""Interactive viewer: watch, pause and push a model with the mouse (like `mujoco.viewer`).

    import engine, engine.viewer
    m = engine.MjModel.from_xml_path("robot.xml"); d = engine.MjData(m)
    engine.viewer.launch(m, d)                     # blocks; simulates in real time

    with engine.viewer.launch_passive(m, d) as viewer:   # your loop steps, the window follows
      while viewer.is_running():
        engine.mj_step(m, d)
        viewer.sync()

Keys: F1 in the window lists them (space pauses, right arrow steps, backspace resets, '-'/'='
change the speed, '[' / ']' cycle cameras, double-click selects a body, ctrl + left/right drag
pulls/twists it). `python -m engine.viewer [MODEL.xml]` opens a file from the command line.
The window needs a display (an X server; `xvfb-run` on a headless machine).

The signatures are `mujoco.viewer`'s, so that `engine.install_as_mujoco()` can stand this
module in for it: `show_left_ui` / `show_right_ui` are accepted, and change nothing, since this
viewer has no side panels (F1 and F2 show its keys and figures as overlays instead).
"""

from engine.viewer.session import Handle as Handle
from engine.viewer.session import ModelViewer as ModelViewer


def launch(
  model=None,
  data=None,
  *,
  loader=None,
  show_left_ui=True,
  show_right_ui=True,
  title=None,
  width=1280,
  height=720,
):
  """Open a window that simulates `model` / `data` in real time until it is closed.

  With no model, a model file can be dropped on the window or opened with ctrl+O. `data`
  (default: a fresh MjData) is stepped in place. `loader`, instead of a model: a function
  returning `(model, data)`, as mujoco.viewer's.
  """
  del show_left_ui, show_right_ui  # no side panels (see the module's docstring)
  if loader is not None:
    if model is not None or data is not None:
      raise ValueError("pass either a model (and data) or a loader, not both")
    if not callable(loader):
      raise ValueError(f"loader is not callable: {loader!r}")
    model, data = loader()
  model = getattr(model, "ptr", model)
  data = getattr(data, "ptr", data)
  ModelViewer(model, data, title=title, width=width, height=height).run()


def launch_from_path(path, **kwargs):
  """Open a window simulating the model in the MJCF file `path` (ctrl+L reloads it)."""
  ModelViewer(path=path, **kwargs).run()


def launch_passive(
  model,
  data,
  *,
  key_callback=None,
  show_left_ui=True,
  show_right_ui=True,
  title="engine viewer",
  width=1280,
  height=720,
) -> Handle:
  """Open a window showing `model` / `data` that the caller's own loop steps; returns at once.

  Call `handle.sync()` after stepping to show the new state (and apply the mouse's
  perturbation); `handle.is_running()` turns False when the window is closed. key_callback
  receives the GLFW key codes of the keys the viewer does not use itself (space, arrows and
  backspace included, since the caller owns the simulation).
  """
  from engine.driver import mj_forward

  del show_left_ui, show_right_ui  # no side panels (see the module's docstring)
  model = getattr(model, "ptr", model)
  data = getattr(data, "ptr", data)
  if key_callback is not None and not callable(key_callback):
    raise ValueError(f"key_callback is not callable: {key_callback!r}")
  mj_forward(model, data)
  return Handle(model, data, key_callback=key_callback, title=title, width=width, height=height)
