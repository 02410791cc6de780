"""Evaluation of nested structures whose leaves are variations or constants."""


def _is_namedtuple(value):
  return isinstance(value, tuple) and hasattr(value, "_fields")


def evaluate(structure, *args, **kwargs):
  """`structure` with every callable leaf replaced by leaf(*args, **kwargs).

  Lists, tuples, namedtuples and dicts are traversed (dict values in sorted key order,
  as dm-tree does, so random draws come in the same order as in dm_control).
  """
  if isinstance(structure, dict):
    values = {key: evaluate(structure[key], *args, **kwargs) for key in sorted(structure)}
    return type(structure)((key, values[key]) for key in structure)
  if _is_namedtuple(structure):
    return type(structure)(*(evaluate(item, *args, **kwargs) for item in structure))
  if isinstance(structure, (list, tuple)):
    return type(structure)(evaluate(item, *args, **kwargs) for item in structure)
  return structure(*args, **kwargs) if callable(structure) else structure
