"""Stacking two Duplo bricks and measuring the force that pulls them apart (used by tests and
to tune the stud sizes)."""

import mjcf
from composer import arena as arena_module

# height of a brick without its studs: where a brick sits on top of another
_BRICK_HEIGHT = 0.0192


def stack_bricks(top_brick, bottom_brick):
  """(arena, attachment frame of the top brick): the bottom brick fixed to the world, the top
  one free and placed on it."""
  arena = arena_module.Arena()
  arena.attach(bottom_brick)
  frame = arena.add_free_entity(top_brick)
  frame.pos = (0, 0, _BRICK_HEIGHT)
  return arena, frame


def _bisect(func, low, high, xtol, rtol=4 * 2.220446049250313e-16, maxiter=100):
  """A root of `func` between `low` and `high` (signs differing), halving the bracket until
  it is narrower than `xtol + rtol * |x|` (the same iterates as `scipy.optimize.bisect`)."""
  f_low, f_high = func(low), func(high)
  if f_low * f_high > 0:
    raise ValueError("f(a) and f(b) must have different signs")
  if f_low == 0:
    return low
  if f_high == 0:
    return high
  step = high - low
  for _ in range(maxiter):
    step *= 0.5
    middle = low + step
    f_middle = func(middle)
    if f_middle * f_low >= 0:
      low = middle
    if f_middle == 0 or abs(step) < xtol + rtol * abs(middle):
      return middle
  raise RuntimeError(f"bisection did not converge in {maxiter} iterations")


def measure_separation_force(
  top_brick,
  bottom_brick,
  min_force=0.0,
  max_force=20.0,
  tolerance=0.01,
  time_limit=0.5,
  height_threshold=1e-3,
):
  """The upward force (N) that separates `top_brick` from `bottom_brick`, to `tolerance`.

  Without gravity, a constant force pulls the top brick for up to `time_limit` seconds; the
  bricks count as separated once it has risen `height_threshold` m. The force is bisected
  between `min_force` and `max_force` (halved or doubled first until they bracket it). A
  longer time limit gives smaller forces: under MuJoCo's soft contacts the bricks can creep
  apart under a force too small to pop them.
  """
  arena, frame = stack_bricks(top_brick, bottom_brick)
  physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  bound_frame = physics.bind(frame)

  def separates(force):
    """+1 if `force` lifts the top brick off within the time limit, else -1."""
    with physics.model.disable("gravity"):
      physics.reset()
      start = bound_frame.xpos[2]
      bound_frame.xfrc_applied[2] = force
      while physics.time() < time_limit:
        physics.step()
        if bound_frame.xpos[2] - start > height_threshold:
          return 1.0
    return -1.0

  while separates(min_force) > 0:
    min_force *= 0.5
  while separates(max_force) < 0:
    max_force *= 2
  return _bisect(separates, min_force, max_force, xtol=tolerance)
