"""dm_control's HDF5 trajectory loader, made to run with the installed protobuf.

dm_control 1.0.50's `HDF5TrajectoryLoader` asks each protobuf field descriptor for `label`,
which protobuf 7 no longer has (AttributeError on every `get_trajectory`). `patched_loader()`
replaces that one method by one asking `is_repeated` instead, the same test; everything else
of the oracle is dm_control's own.
"""

import contextlib
import os

os.environ.setdefault("MUJOCO_GL", "disable")

from dm_control.locomotion.mocap import loader as dm_loader  # noqa: E402
from google.protobuf import descriptor  # noqa: E402

_NESTED = (descriptor.FieldDescriptor.TYPE_GROUP, descriptor.FieldDescriptor.TYPE_MESSAGE)


def _fill_fields(self, proto, h5_group, skip_fields=()):
  for field in proto.DESCRIPTOR.fields:
    if field.name in skip_fields or field.name not in h5_group.attrs or field.type in _NESTED:
      continue
    value = h5_group.attrs[field.name]
    if field.is_repeated:
      getattr(proto, field.name).extend(value)
    else:
      setattr(proto, field.name, value)


@contextlib.contextmanager
def patched_loader():
  saved = dm_loader.HDF5TrajectoryLoader._fill_primitive_proto_fields
  dm_loader.HDF5TrajectoryLoader._fill_primitive_proto_fields = _fill_fields
  try:
    yield dm_loader
  finally:
    dm_loader.HDF5TrajectoryLoader._fill_primitive_proto_fields = saved
