"""A camera that follows the ball and players smoothly, for soccer videos
(dm_control.locomotion.soccer.camera)."""

import numpy as np

from engine.render.camera import MovableCamera
from engine.render.camera import Pose


class MultiplayerTrackingCamera:
  """Looks at the centroid of the tracked entities from `min_distance + distance_factor *`
  (the largest entity distance to the centroid), at a fixed azimuth and elevation; each step
  moves the pose towards that target by the fraction `smoothing_update_speed` (in [0, 1]).
  A task given it as a tracking camera calls `after_compile`, `initialize_episode` and
  `after_step`; `render()` then returns the frame."""

  def __init__(
    self,
    min_distance,
    distance_factor,
    smoothing_update_speed,
    azimuth=90,
    elevation=-45,
    width=1920,
    height=1080,
  ):
    if smoothing_update_speed < 0 or smoothing_update_speed > 1:
      raise ValueError("Filter speed must be in range [0, 1].")
    self._min_distance = min_distance
    self._distance_factor = distance_factor
    self._smoothing_update_speed = smoothing_update_speed
    self._azimuth = azimuth
    self._elevation = elevation
    self._width = width
    self._height = height
    self._camera = None

  @property
  def camera(self):
    return self._camera

  def render(self):
    """The current frame."""
    if self._camera is None:
      raise ValueError(
        "Camera has not been initialized yet. render can only be called after "
        "physics has been compiled."
      )
    return self._camera.render()

  def after_compile(self, physics):
    """Makes the camera, enlarging the offscreen buffer to the video size if needed."""
    vis = physics.model.vis.global_
    vis.offheight = max(self._height, vis.offheight)
    vis.offwidth = max(self._width, vis.offwidth)
    self._camera = MovableCamera(physics, height=self._height, width=self._width)

  def _get_target_camera_pose(self, entity_positions):
    positions = np.stack(entity_positions)
    centroid = np.mean(positions, axis=0)
    radius = np.max(np.linalg.norm(positions - centroid, axis=1))
    return Pose(
      lookat=centroid,
      distance=self._min_distance + self._distance_factor * radius,
      azimuth=self._azimuth,
      elevation=self._elevation,
    )

  def initialize_episode(self, entity_positions):
    """Starts at the target pose."""
    self._camera.set_pose(*self._get_target_camera_pose(entity_positions))

  def after_step(self, entity_positions):
    """Moves towards the target pose."""
    target = self._get_target_camera_pose(entity_positions)
    speed = self._smoothing_update_speed
    self._camera.set_pose(
      *[t * speed + c * (1 - speed) for t, c in zip(target, self._camera.get_pose())]
    )
