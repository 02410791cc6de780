"""Workspaces: the regions from which the hand's and the props' initial poses are drawn, and
sites that show them (and targets) in the model.

Each task module defines its workspace as a namedtuple of `BoundingBox`es and target sizes.
"""

import collections

import numpy as np

from composer.manipulators import base
from composer.variation import distributions
from composer.variation import rotations
from suite.manipulation.shared import constants

_MIN_SITE_DIMENSION = 1e-6  # a flat bounding box still gets a (thin) site
_VISIBLE_GROUP = 0
_INVISIBLE_GROUP = 3  # sensor sites, also invisible, use group 4

DOWN_QUATERNION = base.DOWN_QUATERNION  # the hand pointing down

BoundingBox = collections.namedtuple("BoundingBox", ["lower", "upper"])

# a uniform rotation about z; one angle per draw (PropPlacer passes the previous quaternion as
# the initial value, whose length 4 would otherwise give four angles)
uniform_z_rotation = rotations.QuaternionFromAxisAngle(
  axis=(0.0, 0.0, 1.0), angle=distributions.Uniform(-np.pi, np.pi, single_sample=True)
)


def add_bbox_site(body, lower, upper, visible=False, **kwargs):
  """Adds to `body` a box site spanning `lower` to `upper` (xyz); hidden (in the task-site
  group) unless `visible`. Other attributes come from `kwargs`. Returns the site."""
  lower, upper = np.array(lower), np.array(upper)
  return body.add(
    "site",
    type="box",
    pos=(upper + lower) / 2.0,
    size=np.maximum((upper - lower) / 2.0, _MIN_SITE_DIMENSION),
    group=None if visible else constants.TASK_SITE_GROUP,
    **kwargs,
  )


def add_target_site(body, radius, visible=False, **kwargs):
  """Adds to `body` a sphere site of `radius` marking a target; hidden unless `visible`.
  Returns the site."""
  return body.add(
    "site",
    type="sphere",
    size=[radius],
    group=None if visible else constants.TASK_SITE_GROUP,
    **kwargs,
  )
