"""numjoco engine: MuJoCo physics on numba.

The public API mirrors the `mujoco` Python bindings (ARCHITECTURE.md section 2).
"""

from engine.io import mj_resetData as mj_resetData
from engine.io import mj_resetDataKeyframe as mj_resetDataKeyframe
from engine.types import MjData as MjData
from engine.types import MjModel as MjModel
from engine.types import MjOption as MjOption
from engine.types import MjStatistic as MjStatistic
