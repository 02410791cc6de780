"""numjoco engine: MuJoCo physics on numba.

The public API mirrors the `mujoco` Python bindings (docs/architecture.md):
MjModel/MjData, the mj_ pipeline functions, the mju_ helpers and the mjt enums.
"""

import types as _types

import numpy as _np

# the mju_ helpers of engine/math.py, as cached functions Python can call (mujoco.mju_*)
from engine import _jit as _jit
from engine import arguments as _arguments
from engine import batch as batch  # numba's thread pool for batched steps: engine.batch.POOL
from engine import driver as _driver
from engine import math as _math
from engine import mju as _mju
from engine import rollout as rollout  # batched rollouts (mujoco.rollout): engine.rollout.rollout
from engine.binary import mj_loadModel as mj_loadModel
from engine.binary import mj_saveModel as mj_saveModel
from engine.binary import mj_sizeModel as mj_sizeModel
from engine.collision.driver import mj_collision as mj_collision
from engine.compiler.assets import register_resource_provider as register_resource_provider
from engine.constraint import mj_makeConstraint as mj_makeConstraint
from engine.constraint import mj_referenceConstraint as mj_referenceConstraint
from engine.derivative import mjd_smooth_vel as mjd_smooth_vel
from engine.driver import PhysicsWarning as PhysicsWarning
from engine.driver import mj_checkAcc as mj_checkAcc
from engine.driver import mj_checkPos as mj_checkPos
from engine.driver import mj_checkVel as mj_checkVel
from engine.driver import mj_Euler as mj_Euler
from engine.driver import mj_forward as mj_forward
from engine.driver import mj_forwardSkip as mj_forwardSkip
from engine.driver import mj_fwdAcceleration as mj_fwdAcceleration
from engine.driver import mj_fwdActuation as mj_fwdActuation
from engine.driver import mj_fwdConstraint as mj_fwdConstraint
from engine.driver import mj_fwdPosition as mj_fwdPosition
from engine.driver import mj_fwdVelocity as mj_fwdVelocity
from engine.driver import mj_implicit as mj_implicit
from engine.driver import mj_inverse as mj_inverse
from engine.driver import mj_inverseSkip as mj_inverseSkip
from engine.driver import mj_RungeKutta as mj_RungeKutta
from engine.driver import mj_step as mj_step
from engine.driver import mj_step1 as mj_step1
from engine.driver import mj_step2 as mj_step2
from engine.enums import *  # noqa: F401,F403  (mjt enums and mj* constants, as in mujoco)
from engine.errors import CompileError as CompileError
from engine.errors import Error as Error
from engine.errors import FatalError as FatalError
from engine.errors import PhysicsError as PhysicsError
from engine.errors import RenderingUnavailableError as RenderingUnavailableError
from engine.errors import UnexpectedError as UnexpectedError
from engine.errors import UnsupportedError as UnsupportedError
from engine.finite_difference import mjd_inverseFD as mjd_inverseFD
from engine.finite_difference import mjd_transitionFD as mjd_transitionFD
from engine.functions import MjLROpt as MjLROpt
from engine.functions import mj_actuatorInputName as mj_actuatorInputName
from engine.functions import mj_addM as mj_addM
from engine.functions import mj_angmomMat as mj_angmomMat
from engine.functions import mj_compareFwdInv as mj_compareFwdInv
from engine.functions import mj_defaultLROpt as mj_defaultLROpt
from engine.functions import mj_defaultOption as mj_defaultOption
from engine.functions import mj_defaultSolRefImp as mj_defaultSolRefImp
from engine.functions import mj_defaultVisual as mj_defaultVisual
from engine.functions import mj_flex as mj_flex
from engine.functions import mj_fwdKinematics as mj_fwdKinematics
from engine.functions import mj_getTotalmass as mj_getTotalmass
from engine.functions import mj_invConstraint as mj_invConstraint
from engine.functions import mj_invPosition as mj_invPosition
from engine.functions import mj_invVelocity as mj_invVelocity
from engine.functions import mj_isDual as mj_isDual
from engine.functions import mj_isPyramidal as mj_isPyramidal
from engine.functions import mj_isSparse as mj_isSparse
from engine.functions import mj_jacDot as mj_jacDot
from engine.functions import mj_jacPointAxis as mj_jacPointAxis
from engine.functions import mj_local2Global as mj_local2Global
from engine.functions import mj_maxContact as mj_maxContact
from engine.functions import mj_mulJacTVec as mj_mulJacTVec
from engine.functions import mj_mulJacVec as mj_mulJacVec
from engine.functions import mj_mulM2 as mj_mulM2
from engine.functions import mj_normalizeQuat as mj_normalizeQuat
from engine.functions import mj_objectAcceleration as mj_objectAcceleration
from engine.functions import mj_objectVelocity as mj_objectVelocity
from engine.functions import mj_printData as mj_printData
from engine.functions import mj_printModel as mj_printModel
from engine.functions import mj_projectConstraint as mj_projectConstraint
from engine.functions import mj_resetCtrl as mj_resetCtrl
from engine.functions import mj_resetDataDebug as mj_resetDataDebug
from engine.functions import mj_setTotalmass as mj_setTotalmass
from engine.io import mj_resetData as mj_resetData
from engine.io import mj_resetDataKeyframe as mj_resetDataKeyframe
from engine.island import mj_island as mj_island
from engine.passive import mj_passive as mj_passive
from engine.physics import Physics as Physics
from engine.physics import action_spec as action_spec
from engine.physics import wrapper as wrapper  # dm_control.mujoco.wrapper's names
from engine.ray import mj_multiRay as mj_multiRay
from engine.ray import mj_ray as mj_ray
from engine.ray import mj_rayHfield as mj_rayHfield
from engine.ray import mj_rayMesh as mj_rayMesh
from engine.ray import mju_rayGeom as mju_rayGeom
from engine.sensor import mj_energyPos as mj_energyPos
from engine.sensor import mj_energyVel as mj_energyVel
from engine.sensor import mj_sensorAcc as mj_sensorAcc
from engine.sensor import mj_sensorPos as mj_sensorPos
from engine.sensor import mj_sensorVel as mj_sensorVel
from engine.setconst import mj_setConst as mj_setConst
from engine.smooth import mj_camlight as mj_camlight
from engine.smooth import mj_comPos as mj_comPos
from engine.smooth import mj_comVel as mj_comVel
from engine.smooth import mj_crb as mj_crb
from engine.smooth import mj_factorM as mj_factorM
from engine.smooth import mj_fullM as mj_fullM
from engine.smooth import mj_kinematics as mj_kinematics
from engine.smooth import mj_makeM as mj_makeM
from engine.smooth import mj_mulM as mj_mulM
from engine.smooth import mj_rne as mj_rne
from engine.smooth import mj_rnePostConstraint as mj_rnePostConstraint
from engine.smooth import mj_solveM as mj_solveM
from engine.smooth import mj_solveM2 as mj_solveM2
from engine.smooth import mj_subtreeVel as mj_subtreeVel
from engine.smooth import mj_tendonBias as mj_tendonBias
from engine.solver import mj_constraintUpdate as mj_constraintUpdate
from engine.state import mj_copyState as mj_copyState
from engine.state import mj_extractState as mj_extractState
from engine.state import mj_getState as mj_getState
from engine.state import mj_setKeyframe as mj_setKeyframe
from engine.state import mj_setState as mj_setState
from engine.state import mj_stateSize as mj_stateSize
from engine.support import mj_applyFT as mj_applyFT
from engine.support import mj_contactForce as mj_contactForce
from engine.support import mj_differentiatePos as mj_differentiatePos
from engine.support import mj_geomDistance as mj_geomDistance
from engine.support import mj_id2name as mj_id2name
from engine.support import mj_initCtrlHistory as mj_initCtrlHistory
from engine.support import mj_initSensorHistory as mj_initSensorHistory
from engine.support import mj_integratePos as mj_integratePos
from engine.support import mj_jac as mj_jac
from engine.support import mj_jacBody as mj_jacBody
from engine.support import mj_jacBodyCom as mj_jacBodyCom
from engine.support import mj_jacGeom as mj_jacGeom
from engine.support import mj_jacSite as mj_jacSite
from engine.support import mj_jacSubtreeCom as mj_jacSubtreeCom
from engine.support import mj_name2id as mj_name2id
from engine.support import mj_readCtrl as mj_readCtrl
from engine.support import mj_readSensor as mj_readSensor
from engine.tendon import mj_tendon as mj_tendon
from engine.tendon import mj_transmission as mj_transmission
from engine.types import MjContact as MjContact
from engine.types import MjData as MjData
from engine.types import MjModel as MjModel
from engine.types import MjOption as MjOption
from engine.types import MjStatistic as MjStatistic
from engine.types import MjVisual as MjVisual
from engine.types import MjWarningStat as MjWarningStat
from engine.types import ModelBatch as ModelBatch
from engine.types import mj_copyData as mj_copyData

# engine.mju_*: the helpers with the `mujoco` bindings' signatures and argument checks
# (engine/mju.py); the helpers mujoco lacks (mju_crossMotion, ...) with their C arguments.
# engine.math_raw.mju_*: every helper with its C arguments (sizes passed), unchecked.
math_raw = _types.SimpleNamespace(
  **{_name: _jit.python_callable(getattr(_math, _name)) for _name in _math.__all__}
)
for _name in _math.__all__:
  globals()[_name] = getattr(_mju, _name, None) or getattr(math_raw, _name)
mju_sparse2dense = _mju.mju_sparse2dense
mju_dense2sparse = _mju.mju_dense2sparse
mju_sym2dense = _mju.mju_sym2dense
mju_isZero = _mju.mju_isZero
mju_insertionSort = _mju.mju_insertionSort
mju_insertionSortInt = _mju.mju_insertionSortInt
mju_n2d = _mju.mju_n2d
mju_d2n = _mju.mju_d2n
mju_f2n = _mju.mju_f2n
mju_n2f = _mju.mju_n2f
mju_type2Str = _mju.mju_type2Str
mju_str2Type = _mju.mju_str2Type
mju_writeNumBytes = _mju.mju_writeNumBytes
mju_warningText = _mju.mju_warningText
mju_Halton = _mju.mju_Halton
mju_standardNormal = _mju.mju_standardNormal
mju_printMat = _mju.mju_printMat
mju_printMatSparse = _mju.mju_printMatSparse
mju_bandDiag = _mju.mju_bandDiag
mju_band2Dense = _mju.mju_band2Dense
mju_dense2Band = _mju.mju_dense2Band
mju_bandMulMatVec = _mju.mju_bandMulMatVec
mju_cholFactorBand = _mju.mju_cholFactorBand
mju_cholSolveBand = _mju.mju_cholSolveBand
mju_boxQP = _mju.mju_boxQP


def mj_insideSite(m, d, siteid, point) -> int:
  """1 if `point` (3,) is inside site `siteid` (a sphere, capsule, ellipsoid, cylinder or box,
  where d.site_xpos and d.site_xmat put it), else 0; UnsupportedError for mesh sites."""
  import numpy as np

  from engine import sensor

  siteid = int(siteid)
  if not 0 <= siteid < m.nsite:
    raise IndexError(f"site id {siteid} out of range [0, {m.nsite})")
  kind = int(m.site_type[siteid])
  if kind == mjGEOM_MESH:  # noqa: F405 (from engine.enums)
    raise UnsupportedError("mj_insideSite: mesh sites are not supported")
  point = np.ascontiguousarray(point, dtype=np.float64).reshape(3)
  inside = _jit.python_callable(sensor.inside_geom)
  return int(inside(d.site_xpos[siteid], d.site_xmat[siteid], m.site_size[siteid], kind, point))


# the mj_ functions that run one (m, d) stage, called through the driver's entry point; MuJoCo's
# TypeError for arguments of the wrong type (the driver's functions check their own)
for _name in [n for n in dir() if n.startswith(("mj_", "mjd_"))]:
  if hasattr(globals()[_name], "stage") and not _jit.DISABLE_JIT:
    globals()[_name] = _driver.stage_function(globals()[_name])
  elif globals()[_name].__module__ != "engine.driver":
    globals()[_name] = _arguments.checked(globals()[_name])
del _name

# the MuJoCo release whose API and results this engine matches (mujoco.__version__, as the
# `mujoco` package reports it: code written for `mujoco` checks this)
__version__ = "3.17.0"


def mj_versionString() -> str:
  """The MuJoCo version this engine matches, as mujoco.mj_versionString()."""
  return __version__


def mj_version() -> int:
  """The MuJoCo version this engine matches as mujoco.mj_version() gives it (3.17.0: 3017000)."""
  major, minor, patch = (int(part) for part in __version__.split("."))
  return major * 1_000_000 + minor * 1_000 + patch


mjVERSION_HEADER = mj_version()  # the version of MuJoCo's C headers (ours: the same number)
MJTNUM_DTYPE = _np.float64  # mjtNum: every real number of the model and data
MJTNUM_BYTES = 8


def install_as_mujoco() -> None:
  """Makes `import mujoco` give this engine, for code written for the `mujoco` package: call it
  before that code imports mujoco, e.g. before `gymnasium.make("HalfCheetah-v5")`.
  `mujoco.rollout` is engine.rollout, `mujoco.viewer` engine.viewer, and `mujoco.egl`,
  `mujoco.osmesa` and `mujoco.glfw` give GL contexts on that backend."""
  import sys
  import types

  sys.modules["mujoco"] = sys.modules[__name__]
  sys.modules["mujoco.rollout"] = rollout
  for backend in ("egl", "osmesa", "glfw"):  # mujoco.egl.GLContext(width, height), ...
    module = types.ModuleType(f"mujoco.{backend}")
    module.GLContext = _backend_context(backend)
    sys.modules[module.__name__] = module
  sys.modules["mujoco.viewer"] = _LazyModule("mujoco.viewer", "engine.viewer")


class _LazyModule(_types.ModuleType):
  """A module that imports `target` on first attribute access, so that installing the
  viewer's name does not load GLFW and OpenGL for code that never opens a window."""

  def __init__(self, name, target):
    super().__init__(name)
    self._target = target

  def __getattr__(self, attr):
    import importlib

    return getattr(importlib.import_module(self._target), attr)


def _backend_context(backend):
  """GLContext on one backend, as the bindings' mujoco.<backend>.GLContext(width, height)."""

  def context(max_width, max_height):
    from engine.render.context import GLContext

    return GLContext(max_width, max_height, backend=backend)

  return context


# rendering names, imported on first use so that physics-only use never loads OpenGL
_RENDER_NAMES = frozenset(
  (
    "Renderer",
    "Camera",
    "CameraMatrices",
    "MovableCamera",
    "TextOverlay",
    "MjvOption",
    "MjvCamera",
    "MjvPerturb",
    "MjvScene",
    "MjvGeom",
    "MjvLight",
    "MjvGLCamera",
    "MjrContext",
    "MjrRect",
    "mjv_updateScene",
    "mjv_defaultFreeCamera",
    "mjv_defaultOption",
    "mjv_defaultCamera",
    "mjv_defaultPerturb",
    "mjv_initGeom",
    "mjv_connector",
    "mjr_render",
    "mjr_readPixels",
    "mjr_setBuffer",
    "mjr_overlay",
    "mjr_uploadHField",
    "mjr_uploadMesh",
    "mjr_uploadTexture",
    "mjr_finish",
    "mjr_getError",
    "mjr_maxViewport",
    "mjr_findRect",
    "mjr_drawPixels",
    "mjr_blitBuffer",
    "mjr_setAux",
    "mjr_addAux",
    "mjr_blitAux",
    "mjr_changeFont",
    "mjr_resizeOffscreen",
    "mjr_label",
    "mjr_figure",
    "MjvFigure",
    "mjv_defaultFigure",
    "mjv_addGeoms",
    "mjv_alignToCamera",
    "mjv_applyPerturbForce",
    "mjv_applyPerturbPose",
    "mjv_averageCamera",
    "mjv_camera2GLCamera",
    "mjv_cameraFrame",
    "mjv_cameraFrustum",
    "mjv_cameraInModel",
    "mjv_cameraInRoom",
    "mjv_frustumHeight",
    "mjv_initPerturb",
    "mjv_makeLights",
    "mjv_model2room",
    "mjv_moveCamera",
    "mjv_moveModel",
    "mjv_movePerturb",
    "mjv_room2model",
    "mjv_select",
    "mjv_updateCamera",
    "mjv_updateSkin",
    "mjr_rectangle",
    "mjr_text",
    "mjr_restoreBuffer",
    "GLContext",
  )
)


def __getattr__(name):
  if name == "viewer":  # as mujoco.viewer, after install_as_mujoco() (imported on first use)
    import importlib

    return importlib.import_module("engine.viewer")
  if name in _RENDER_NAMES:
    from engine import render
    from engine.render import figure as _figure  # noqa: F401  (render.figure)

    modules = (
      render.visualize,
      render.gl_renderer,
      render.gl_resources,
      render.gl_text,
      render.figure,
    )
    for module in (render, *modules, render.context):
      if hasattr(module, name):
        return getattr(module, name)
  raise AttributeError(f"module 'engine' has no attribute '{name}'")


def _freeze_import_heap():
  """Moves what the import left on the heap (numba's types and dispatchers, the engine's
  tables: objects that live as long as the process) out of the cyclic garbage collector's
  reach, so that full collections no longer walk it: the one a process's first model load
  triggered took 35-45 ms. Reference counting still frees what it can; only cyclic garbage
  made before this import is never collected."""
  import gc

  gc.freeze()


_freeze_import_heap()
