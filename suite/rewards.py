"""`suite.rewards.tolerance`: the reward shaping function (implemented in suite/utils/rewards.py,
where dm_control code imports it from as `utils.rewards`)."""

from suite.utils.rewards import tolerance as tolerance
