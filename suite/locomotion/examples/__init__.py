"""Example environments of the locomotion tasks (dm_control's locomotion.examples): the CMU
humanoid's (`basic_cmu_2019`) and the rat's (`basic_rodent_2020`).

`ALL_BUILDERS` maps each builder's name to the builder; `load(name, random_state)` builds one by
name, as `python -m suite.locomotion NAME` and `python -m suite.viewer locomotion NAME` do. The
tracking and playback builders (`cmu_humanoid_tracking`, `cmu_humanoid_mocap_playback`) read
motion-capture data: `$NUMJOCO_MOCAP_FILE`, or
the CMU data, downloaded on first use.
"""

from suite.locomotion.examples import basic_cmu_2019
from suite.locomotion.examples import basic_rodent_2020
from suite.locomotion.examples import cmu_2020_tracking

ALL_BUILDERS = {
  "cmu_humanoid_run_walls": basic_cmu_2019.cmu_humanoid_run_walls,
  "cmu_humanoid_run_gaps": basic_cmu_2019.cmu_humanoid_run_gaps,
  "cmu_humanoid_go_to_target": basic_cmu_2019.cmu_humanoid_go_to_target,
  "rodent_escape_bowl": basic_rodent_2020.rodent_escape_bowl,
  "rodent_run_gaps": basic_rodent_2020.rodent_run_gaps,
  "rodent_two_touch": basic_rodent_2020.rodent_two_touch,
  "cmu_humanoid_maze_forage": basic_cmu_2019.cmu_humanoid_maze_forage,
  "cmu_humanoid_heterogeneous_forage": basic_cmu_2019.cmu_humanoid_heterogeneous_forage,
  "rodent_maze_forage": basic_rodent_2020.rodent_maze_forage,
  "cmu_humanoid_tracking": cmu_2020_tracking.cmu_humanoid_tracking,
  "cmu_humanoid_mocap_playback": cmu_2020_tracking.cmu_humanoid_mocap_playback,
}

# the builders that read motion-capture data (not built by tests and benchmarks without it)
MOCAP_BUILDERS = ("cmu_humanoid_tracking", "cmu_humanoid_mocap_playback")


def load(name, random_state=None):
  """The environment built by the builder `name`, with `random_state` (None, a seed or a numpy
  RandomState)."""
  if name not in ALL_BUILDERS:
    raise ValueError(
      f"no locomotion example builder {name!r}; the builders are: {', '.join(ALL_BUILDERS)}"
    )
  return ALL_BUILDERS[name](random_state=random_state)
