"""Motion-capture trajectories for the locomotion walkers (dm_control.locomotion.mocap):
`loader.HDF5TrajectoryLoader` reads dm_control's HDF5 files into `trajectory.Trajectory`s,
`cmu_mocap_data.get_path_for_cmu` finds or downloads the CMU data; `mocap_types` has the records
dm_control keeps in protocol buffers."""
