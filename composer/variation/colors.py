"""Color variations; every one returns an RGBA array."""

import colorsys

import numpy as np

from composer.variation import base
from composer.variation import variation_values


class RgbVariation(base.Variation):
  """Independent variations of the R, G, B and alpha channels."""

  def __init__(self, r, g, b, alpha=1.0):
    self._r, self._g, self._b, self._alpha = r, g, b, alpha

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    channels = [self._r, self._g, self._b, self._alpha]
    return np.asarray(
      variation_values.evaluate(channels, initial_value, current_value, random_state)
    )

  def __eq__(self, other):
    return isinstance(other, RgbVariation) and (self._r, self._g, self._b, self._alpha) == (
      other._r,
      other._g,
      other._b,
      other._alpha,
    )


class HsvVariation(base.Variation):
  """Independent variations of hue, saturation, value and alpha (converted to RGBA)."""

  def __init__(self, h, s, v, alpha=1.0):
    self._h, self._s, self._v, self._alpha = h, s, v, alpha

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    h, s, v, alpha = variation_values.evaluate(
      (self._h, self._s, self._v, self._alpha), initial_value, current_value, random_state
    )
    return np.asarray(list(colorsys.hsv_to_rgb(h, s, v)) + [alpha])

  def __eq__(self, other):
    return isinstance(other, HsvVariation) and (self._h, self._s, self._v, self._alpha) == (
      other._h,
      other._s,
      other._v,
      other._alpha,
    )

  def __repr__(self):
    return f"HsvVariation(h={self._h}, s={self._s}, v={self._v}, alpha={self._alpha})"


class GrayVariation(HsvVariation):
  """A variation of the gray level (and alpha)."""

  def __init__(self, gray_level, alpha=1.0):
    super().__init__(h=0.0, s=0.0, v=gray_level, alpha=alpha)

  def __repr__(self):
    return f"GrayVariation(gray_level={self._v}, alpha={self._alpha})"
