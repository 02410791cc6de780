"""Fixed cameras around the workspace, and their observables."""

import collections

from composer.observation import observable

# a camera's name, position and (x axis, y axis) orientation in its parent's frame
CameraSpec = collections.namedtuple("CameraSpec", ["name", "pos", "xyaxes"])

FRONT_CLOSE = CameraSpec(
  name="front_close", pos=(0.0, -0.6, 0.75), xyaxes=(1.0, 0.0, 0.0, 0.0, 0.7, 0.75)
)
FRONT_FAR = CameraSpec(
  name="front_far", pos=(0.0, -0.8, 1.0), xyaxes=(1.0, 0.0, 0.0, 0.0, 0.7, 0.75)
)
TOP_DOWN = CameraSpec(name="top_down", pos=(0.0, 0.0, 2.5), xyaxes=(1.0, 0.0, 0.0, 0.0, 1.0, 0.0))
LEFT_CLOSE = CameraSpec(
  name="left_close", pos=(-0.6, 0.0, 0.75), xyaxes=(0.0, -1.0, 0.0, 0.7, 0.0, 0.75)
)
RIGHT_CLOSE = CameraSpec(
  name="right_close", pos=(0.6, 0.0, 0.75), xyaxes=(0.0, 1.0, 0.0, -0.7, 0.0, 0.75)
)


def add_camera_observables(entity, obs_settings, *camera_specs):
  """Adds a camera per spec to `entity`'s worldbody; returns an OrderedDict of their
  `MJCFCamera` observables by camera name, configured by `obs_settings.camera`."""
  observables = collections.OrderedDict()
  for spec in camera_specs:
    camera = entity.mjcf_model.worldbody.add("camera", **spec._asdict())
    camera_observable = observable.MJCFCamera(camera)
    camera_observable.configure(**obs_settings.camera._asdict())
    observables[spec.name] = camera_observable
  return observables
