"""Position and velocity actuators with an affinely scaled control
(dm_control.locomotion.walkers.scaled_actuators).

The control range maps linearly onto a target range: with `add_position_actuator(joint,
qposrange=(lo, hi), ctrlrange=(-1, 1))`, control -1 drives the joint to lo and +1 to hi, as
MuJoCo's `<position>` would with the control rescaled first. Both add a `<general>` actuator
with an affine bias: force = kp (g u + b0 - qpos) for position, kv (g u + b0 - qvel) for
velocity, where g and b0 map the control range onto the target range.
"""

_DISALLOWED_KWARGS = frozenset(
  [
    "biastype",
    "gainprm",
    "biasprm",
    "ctrllimited",
    "joint",
    "tendon",
    "site",
    "slidersite",
    "cranksite",
  ]
)
# the actuator attribute naming each kind of target (tendons are <fixed> or <spatial> elements)
_TRANSMISSION = {"joint": "joint", "site": "site", "fixed": "tendon", "spatial": "tendon"}
_TARGET_KINDS = sorted(set(_TRANSMISSION.values()))


def _check_target_and_kwargs(target, kwargs):
  """Raises TypeError for a disallowed attribute in `kwargs` or a target of the wrong kind."""
  disallowed = _DISALLOWED_KWARGS.intersection(kwargs)
  if disallowed:
    raise TypeError(f"Received invalid keyword argument(s): {sorted(disallowed)}")
  if getattr(target, "tag", None) not in _TRANSMISSION:
    raise TypeError(f"`target` tag type should be one of {_TARGET_KINDS}: got {target}")


def _slope(target_range, ctrlrange, target_range_name):
  """The gain mapping `ctrlrange` onto `target_range` (each a pair of numbers).

  Raises:
    ValueError: a range is not two numbers, or the control range is empty.
  """
  for name, pair in ((target_range_name, target_range), ("ctrlrange", ctrlrange)):
    if len(pair) != 2:
      raise ValueError(f"`{name}` must be two numbers (low, high): got {pair!r}")
  if ctrlrange[1] == ctrlrange[0]:
    raise ValueError(f"`ctrlrange` must have two different bounds: got {ctrlrange!r}")
  return (target_range[1] - target_range[0]) / (ctrlrange[1] - ctrlrange[0])


def _add_affine_actuator(target, gain, bias, ctrlrange, kwargs):
  kwargs[_TRANSMISSION[target.tag]] = target
  return target.root.actuator.add(
    "general",
    biastype="affine",
    gainprm=[gain],
    biasprm=bias,
    ctrllimited=True,
    ctrlrange=ctrlrange,
    **kwargs,
  )


def add_position_actuator(target, qposrange, ctrlrange=(-1, 1), kp=1.0, **kwargs):
  """Adds to `target`'s model a position actuator whose control range maps onto `qposrange`.

  Args:
    target: the joint, tendon (<fixed> or <spatial>) or site element to drive.
    qposrange: (low, high) target positions, reached at the control's low and high ends.
    ctrlrange: (low, high) range of the control signal.
    kp: position gain.
    **kwargs: other attributes of the `<general>` actuator (not biastype, gainprm, biasprm,
      ctrllimited, or a transmission: joint, tendon, site, slidersite, cranksite).

  Returns:
    The new actuator element.

  Raises:
    TypeError: a disallowed attribute, or `target` is not a joint, tendon or site.
    ValueError: a range is not two numbers, or `ctrlrange` is empty.
  """
  _check_target_and_kwargs(target, kwargs)
  slope = _slope(qposrange, ctrlrange, "qposrange")
  bias = [kp * (qposrange[0] - slope * ctrlrange[0]), -kp, 0]
  return _add_affine_actuator(target, kp * slope, bias, ctrlrange, kwargs)


def add_velocity_actuator(target, qvelrange, ctrlrange=(-1, 1), kv=1.0, **kwargs):
  """Adds to `target`'s model a velocity actuator whose control range maps onto `qvelrange`.

  Args:
    target: the joint, tendon (<fixed> or <spatial>) or site element to drive.
    qvelrange: (low, high) target velocities, reached at the control's low and high ends.
    ctrlrange: (low, high) range of the control signal.
    kv: velocity gain.
    **kwargs: other attributes of the `<general>` actuator (as add_position_actuator).

  Returns:
    The new actuator element.

  Raises:
    TypeError: a disallowed attribute, or `target` is not a joint, tendon or site.
    ValueError: a range is not two numbers, or `ctrlrange` is empty.
  """
  _check_target_and_kwargs(target, kwargs)
  slope = _slope(qvelrange, ctrlrange, "qvelrange")
  bias = [kv * (qvelrange[0] - slope * ctrlrange[0]), 0, -kv]
  return _add_affine_actuator(target, kv * slope, bias, ctrlrange, kwargs)
