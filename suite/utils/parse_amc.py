"""CMU motion capture: parse `.amc` files and convert them to humanoid_CMU states.

An `.amc` file (Acclaim motion capture) holds a header (comment lines starting with `#`,
keywords starting with `:` such as `:DEGREES`), then one block per frame: a line with the frame
number, then one line per bone, `bone value value ...`, with the values of the bone's channels
in the order its `.asf` skeleton declares them. Rotations are in degrees; the root's
translation is in the skeleton's length unit. CMU's data is sampled at 120 Hz.

`parse(file_name)` returns the frames; `convert(file_name, physics, timestep)` maps them to the
joints of the humanoid_CMU model (one hinge per bone rotation channel, named bone + channel,
e.g. `lfemurrx`, and a free root joint) and resamples them to `timestep` with a cubic spline.
"""

import collections

import numpy as np

from engine import math as mjmath
from engine import mju_mulQuat
from engine import mju_negQuat
from engine import mju_quat2Vel
from engine.enums import mjJNT_FREE

MOCAP_DT = 1.0 / 120.0  # seconds between CMU frames

# metres per CMU length unit: the skeletons' unit is 1/0.45 inch (0.0254 / 0.45 m), to the
# five significant digits dm_control uses
CONVERSION_LENGTH = 0.056444

# the channels of each bone of the CMU skeletons (their .asf files), in the order the .amc
# values are written; the root's translation TX TY TZ is followed by its rotation RX RY RZ
_CMU_CHANNELS = {
  "root": ("tx", "ty", "tz", "rx", "ry", "rz"),
  "lowerback": ("rx", "ry", "rz"),
  "upperback": ("rx", "ry", "rz"),
  "thorax": ("rx", "ry", "rz"),
  "lowerneck": ("rx", "ry", "rz"),
  "upperneck": ("rx", "ry", "rz"),
  "head": ("rx", "ry", "rz"),
  "rclavicle": ("ry", "rz"),
  "rhumerus": ("rx", "ry", "rz"),
  "rradius": ("rx",),
  "rwrist": ("ry",),
  "rhand": ("rx", "rz"),
  "rfingers": ("rx",),
  "rthumb": ("rx", "rz"),
  "lclavicle": ("ry", "rz"),
  "lhumerus": ("rx", "ry", "rz"),
  "lradius": ("rx",),
  "lwrist": ("ry",),
  "lhand": ("rx", "rz"),
  "lfingers": ("rx",),
  "lthumb": ("rx", "rz"),
  "rfemur": ("rx", "ry", "rz"),
  "rtibia": ("rx",),
  "rfoot": ("rx", "rz"),
  "rtoes": ("rx",),
  "lfemur": ("rx", "ry", "rz"),
  "ltibia": ("rx",),
  "lfoot": ("rx", "rz"),
  "ltoes": ("rx",),
}

Converted = collections.namedtuple("Converted", ["qpos", "qvel", "time"])
Converted.__doc__ = """A converted motion: qpos (nq, T), qvel (nv, T - 1) and time (T,)."""


def parse(file_name):
  """The frames of an `.amc` file: one float array per frame, every bone's values in the
  order of the file's lines (bone names dropped)."""
  return [
    np.array([v for _, values in frame for v in values], dtype=float)
    for frame in _read_frames(file_name)
  ]


def convert(file_name, physics, timestep):
  """An `.amc` motion as states of `physics` (the humanoid_CMU model), every `timestep` s.

  Each frame becomes a qpos: the root's translation, scaled to metres and turned from the
  data's y-up frame to MuJoCo's z-up one, the root's rotation (applied z, then y, then x, as
  CMU's skeletons declare) as a quaternion, and every other rotation channel, in radians, on
  the hinge named bone + channel (hinges without a channel stay 0). The qpos are resampled
  per coordinate with a cubic spline (not-a-knot) at 0, timestep, 2 timestep, ... up to the
  last frame's time; qvel are finite differences of consecutive samples (the root's angular
  velocity from their relative rotation).

  Args:
    file_name: path of the `.amc` file (at least 4 frames, for the cubic spline).
    physics: a Physics of the humanoid_CMU model (or any model whose hinges are named after
      CMU bones and channels and whose free joint is the root).
    timestep: the sampling interval in seconds (usually the control timestep).

  Returns:
    Converted(qpos (nq, T), qvel (nv, T - 1), time (T,)).
  """
  frames = _read_frames(file_name)
  to_qpos = _FrameToQpos(physics.model)
  qpos = np.stack([to_qpos(frame) for frame in frames])  # (frames, nq)

  n = len(frames)
  times = np.arange(n) * MOCAP_DT  # the frames' times
  new_times = np.arange(0, n * MOCAP_DT, timestep)
  new_times = new_times[new_times <= times[-1]]
  resampled = _cubic_spline(times, qpos, new_times).T  # (nq, T)

  qvel = np.zeros((physics.model.nv, max(resampled.shape[1] - 1, 0)))
  for t in range(qvel.shape[1]):
    qvel[:, t] = to_qpos.velocity(resampled[:, t], resampled[:, t + 1], timestep)
  return Converted(resampled, qvel, new_times)


def _read_frames(file_name):
  """The frames of an `.amc` file, each a list of (bone, values) in file order."""
  frames = []
  with open(file_name) as f:
    for line in f:
      tokens = line.split()
      if not tokens or tokens[0][0] in "#:":
        continue  # blank line, comment or header keyword
      if len(tokens) == 1 and tokens[0].isdigit():
        frames.append([])  # a frame number starts the next frame
      elif frames:
        frames[-1].append((tokens[0], [float(v) for v in tokens[1:]]))
  return frames


class _FrameToQpos:
  """Maps a frame's (bone, values) to a qpos of the model."""

  # the data's y-up frame to MuJoCo's z-up one: x stays, y becomes z, z becomes -y
  _ROOT_AXES = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]])

  def __init__(self, model):
    self.nq, self.nv = model.nq, model.nv
    self.hinges = {}  # joint name -> (qpos address, dof address)
    self.free = None  # the root's (qpos address, dof address)
    for j in range(model.njnt):
      address = (int(model.jnt_qposadr[j]), int(model.jnt_dofadr[j]))
      if model.jnt_type[j] == mjJNT_FREE:
        self.free = address
      else:
        self.hinges[model.id2name(j, "joint")] = address
    if self.free is None:
      raise ValueError("The model has no free joint to carry the motion's root.")
    # a quarter turn about x: the y-up root frame stands up in the z-up world
    self.up = mjmath.euler2quat(90, 0, 0)

  def __call__(self, frame):
    qpos = np.zeros(self.nq)
    for bone, values in frame:
      channels = _CMU_CHANNELS.get(bone, ())
      if bone == "root":
        root = dict(zip(channels, values))
        translation = [root.get(c, 0.0) for c in ("tx", "ty", "tz")]
        adr = self.free[0]
        qpos[adr : adr + 3] = self._ROOT_AXES @ translation * CONVERSION_LENGTH
        rotation = mjmath.euler2quat(root.get("rx", 0.0), root.get("ry", 0.0), root.get("rz", 0.0))
        mju_mulQuat(qpos[adr + 3 : adr + 7], self.up, rotation)
        continue
      for channel, value in zip(channels, values):
        address = self.hinges.get(bone + channel)
        if address is not None:
          qpos[address[0]] = np.deg2rad(value)
    return qpos

  def velocity(self, before, after, dt):
    """The qvel taking qpos `before` to `after` in `dt`: finite differences, the root's
    angular velocity from the relative rotation of its (interpolated) quaternions."""
    qvel = np.zeros(self.nv)
    adr, dof = self.free
    qvel[dof : dof + 3] = (after[adr : adr + 3] - before[adr : adr + 3]) / dt
    qvel[dof + 3 : dof + 6] = _angular_velocity(
      before[adr + 3 : adr + 7], after[adr + 3 : adr + 7], dt
    )
    for adr, dof in self.hinges.values():
      qvel[dof] = (after[adr] - before[adr]) / dt
    return qvel


def _angular_velocity(quat_before, quat_after, dt):
  """The angular velocity (in the rotated frame) turning quat_before into quat_after in dt."""
  inverse = np.zeros(4)
  mju_negQuat(inverse, np.ascontiguousarray(quat_before))
  difference = np.zeros(4)
  mju_mulQuat(difference, inverse, np.ascontiguousarray(quat_after))
  velocity = np.zeros(3)
  mju_quat2Vel(velocity, difference, dt)
  return velocity


def _cubic_spline(x, y, x_new):
  """The interpolating cubic spline with not-a-knot ends through (x, y), at x_new.

  x: (n,) increasing, n >= 4; y: (n, m), one spline per column. Solves the tridiagonal
  system of the second derivatives (Thomas algorithm, all columns at once).

  Raises:
    ValueError: fewer than 4 points.
  """
  n = len(x)
  if n < 4:
    raise ValueError(f"A cubic spline needs at least 4 frames, got {n}.")
  h = np.diff(x)
  slope = np.diff(y, axis=0) / h[:, None]
  rhs = 6 * (slope[1:] - slope[:-1])  # rows 1..n-2
  # rows i = 1..n-2: h[i-1] M[i-1] + 2 (h[i-1] + h[i]) M[i] + h[i] M[i+1] = rhs;
  # not-a-knot: M[0] and M[n-1] extrapolate linearly (a continuous third derivative at x[1]
  # and x[n-2]), which folds them into the first and last rows
  lower = h[:-1].copy()
  diag = 2 * (h[:-1] + h[1:])
  upper = h[1:].copy()
  r0 = h[0] / h[1]
  diag[0] += h[0] * (1 + r0)
  upper[0] -= h[0] * r0
  r1 = h[-1] / h[-2]
  diag[-1] += h[-1] * (1 + r1)
  lower[-1] -= h[-1] * r1
  k = n - 2
  c = np.zeros(k)
  d = np.zeros_like(rhs)
  c[0] = upper[0] / diag[0]
  d[0] = rhs[0] / diag[0]
  for i in range(1, k):
    denominator = diag[i] - lower[i] * c[i - 1]
    c[i] = upper[i] / denominator
    d[i] = (rhs[i] - lower[i] * d[i - 1]) / denominator
  inner = np.zeros_like(rhs)
  inner[-1] = d[-1]
  for i in range(k - 2, -1, -1):
    inner[i] = d[i] - c[i] * inner[i + 1]
  second = np.empty_like(y, dtype=float)
  second[1:-1] = inner
  second[0] = (1 + r0) * inner[0] - r0 * inner[1]
  second[-1] = (1 + r1) * inner[-1] - r1 * inner[-2]

  j = np.clip(np.searchsorted(x, x_new, side="right") - 1, 0, n - 2)
  hj = h[j][:, None]
  a = (x[j + 1] - x_new)[:, None]
  b = (x_new - x[j])[:, None]
  return (
    second[j] * a**3 / (6 * hj)
    + second[j + 1] * b**3 / (6 * hj)
    + (y[j] / hj - second[j] * hj / 6) * a
    + (y[j + 1] / hj - second[j + 1] * hj / 6) * b
  )
