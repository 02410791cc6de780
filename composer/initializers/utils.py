"""Helpers for initializers."""

import collections.abc


def _root_model(elements):
  root = elements[0].root.root_model
  for element in elements:
    if element.root.root_model is not root:
      raise ValueError("entities do not all belong to the same root model")
  return root


class JointStaticIsolator:
  """Context manager restoring, on exit, the qpos/qvel that all joints but `joints` had
  when it was created (so settling some props leaves everything else in place)."""

  def __init__(self, physics, joints):
    if not isinstance(joints, collections.abc.Iterable):
      joints = [joints]
    joints = list(joints)
    others = [joint for joint in _root_model(joints).find_all("joint") if joint not in joints]
    self._others = physics.bind(others) if others else None
    if self._others is not None:
      self._qpos = self._others.qpos.copy()
      self._qvel = self._others.qvel.copy()

  def __enter__(self):
    return self

  def __exit__(self, exc_type, exc_value, traceback):
    if self._others is not None:
      self._others.qpos = self._qpos
      self._others.qvel = self._qvel
