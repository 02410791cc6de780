"""A walker initializer that poses the walker from a CMU motion-capture clip."""

from suite.locomotion.mocap import cmu_mocap_data
from suite.locomotion.mocap import loader
from suite.locomotion.walkers import initializers


class CMUMocapInitializer(initializers.UprightInitializer):
  """Poses the walker upright, then sets its joints and their velocities, and its root
  velocity, to those of a random step of the clip `mocap_key`. Only for walkers that match the
  data (the CMU humanoid of `version`).

  `ref_path` is the HDF5 file to read (by default the CMU data of `version`, downloaded if
  needed: see `cmu_mocap_data.get_path_for_cmu`).
  """

  def __init__(self, mocap_key="CMU_077_02", version="2019", ref_path=None):
    ref_path = ref_path or cmu_mocap_data.get_path_for_cmu(version)
    self._loader = loader.HDF5TrajectoryLoader(ref_path)
    self._trajectory = self._loader.get_trajectory(mocap_key)

  def initialize_pose(self, physics, walker, random_state):
    super().initialize_pose(physics, walker, random_state)
    time = self._trajectory.start_time + self._trajectory.dt * random_state.randint(
      self._trajectory.num_steps
    )
    (pose,) = self._trajectory.get_timestep_data(time).walkers
    physics.bind(walker.mocap_joints).qpos = pose.joints
    physics.bind(walker.mocap_joints).qvel = pose.joints_velocity
    walker.set_velocity(physics, velocity=pose.velocity, angular_velocity=pose.angular_velocity)
