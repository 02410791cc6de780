"""Observables defined by MJCF elements, read through `physics.bind`."""

import collections.abc

import numpy as np
from dm_env import specs

import mjcf
from composer.observation.observable import base

_BOTH_SEGMENTATION_AND_DEPTH_ENABLED = "`segmentation` and `depth` cannot both be `True`."


def _check_mjcf_element(obj):
  if not isinstance(obj, mjcf.Element):
    raise ValueError(f"expected an `mjcf.Element`, got type {type(obj)}: {obj}")


def _check_mjcf_elements(obj):
  items = obj if isinstance(obj, collections.abc.Iterable) else (obj,)
  for item in items:
    _check_mjcf_element(item)


class BoundAttribute(base.PerPhysics):
  """`bound(physics)`: attribute `kind` of MJCF element(s) as a plain array (flattened with
  `flat`), for Generic observables that read the same elements at every step: the binding's
  reader (`Binding.reader`) is looked up once per physics rather than binding at every call."""

  def __init__(self, kind, mjcf_elements, flat=False):
    _check_mjcf_elements(mjcf_elements)

    def make(physics):
      read = physics.bind(mjcf_elements).reader(kind)
      return (lambda: read().reshape(-1)) if flat else read

    super().__init__(make)


class MJCFFeature(base.Observable):
  """A bound attribute of one element or a list of elements, e.g. ('qpos', joints).

  `index` (or `feature[index]`) picks a slice of the bound array.
  """

  def __init__(
    self,
    kind,
    mjcf_element,
    update_interval=1,
    buffer_size=None,
    delay=None,
    aggregator=None,
    corruptor=None,
    index=None,
  ):
    _check_mjcf_elements(mjcf_element)
    self._kind = kind
    self._mjcf_element = mjcf_element
    self._index = index
    super().__init__(update_interval, buffer_size, delay, aggregator, corruptor)

  def _callable(self, physics):
    # read at every step: the binding's plain reader, not its write-through arrays
    read = physics.bind(self._mjcf_element).reader(self._kind)
    index = self._index
    if index is None:
      return read
    return lambda: read()[index]

  def __getitem__(self, key):
    if self._index is not None:
      raise NotImplementedError("slicing an already-sliced MJCFFeature observable is not supported")
    return MJCFFeature(
      self._kind,
      self._mjcf_element,
      self._update_interval,
      self._buffer_size,
      self._delay,
      self._aggregator,
      self._corruptor,
      key,
    )


class MJCFCamera(base.Observable):
  """Images from a <camera> element: uint8 RGB, float32 depth or int32 segmentation."""

  def __init__(
    self,
    mjcf_element,
    height=240,
    width=320,
    update_interval=1,
    buffer_size=None,
    delay=None,
    aggregator=None,
    corruptor=None,
    depth=False,
    segmentation=False,
    scene_option=None,
    render_flag_overrides=None,
  ):
    _check_mjcf_element(mjcf_element)
    if mjcf_element.tag != "camera":
      raise ValueError(f"expected a <camera> element: got {mjcf_element}")
    if segmentation and depth:
      raise ValueError(_BOTH_SEGMENTATION_AND_DEPTH_ENABLED)
    self._mjcf_element = mjcf_element
    self._height = height
    self._width = width
    self._depth = depth
    self._segmentation = segmentation
    self._scene_option = scene_option
    self._render_flag_overrides = render_flag_overrides
    super().__init__(update_interval, buffer_size, delay, aggregator, corruptor)

  height = base.MujocoCamera.height
  width = base.MujocoCamera.width

  @property
  def depth(self):
    return self._depth

  @depth.setter
  def depth(self, value):
    self._depth = value

  @property
  def segmentation(self):
    return self._segmentation

  @segmentation.setter
  def segmentation(self, value):
    self._segmentation = value

  @property
  def scene_option(self):
    return self._scene_option

  @scene_option.setter
  def scene_option(self, value):
    self._scene_option = value

  @property
  def render_flag_overrides(self):
    return self._render_flag_overrides

  @render_flag_overrides.setter
  def render_flag_overrides(self, value):
    self._render_flag_overrides = value

  @property
  def array_spec(self):
    if self._depth:
      dtype, channels, low, high = np.float32, 1, 0.0, np.inf
    elif self._segmentation:
      dtype, channels, low, high = np.int32, 2, -1, np.iinfo(np.int32).max
    else:
      dtype, channels, low, high = np.uint8, 3, 0, 255
    return specs.BoundedArray(
      shape=(self._height, self._width, channels), dtype=dtype, minimum=low, maximum=high
    )

  def _callable(self, physics):
    def render():
      pixels = physics.render(
        height=self._height,
        width=self._width,
        camera_id=self._mjcf_element.full_identifier,
        depth=self._depth,
        segmentation=self._segmentation,
        scene_option=self._scene_option,
        render_flag_overrides=self._render_flag_overrides,
      )
      return np.atleast_3d(pixels)

    return render
