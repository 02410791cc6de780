"""The Duplo brick against dm_control's: compiled models field by field for every stud shape,
flange setting, variation and colour (after the per-episode stud draw), sensor readings of two
stacked bricks, the separation force; and dm_control's own Duplo tests re-expressed."""

import os

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

from dm_control import mjcf as dm_mjcf  # noqa: E402  (after MUJOCO_GL)
from dm_control.entities.props import duplo as dm_duplo  # noqa: E402
from dm_control.entities.props.duplo import utils as dm_utils  # noqa: E402

import engine  # noqa: E402
import mjcf  # noqa: E402
from composer.props import duplo  # noqa: E402
from composer.props.duplo import utils  # noqa: E402
from tests.locomotion import walker_parity  # noqa: E402

OPTIONS = [dict(easy_align=a, flanges=f) for a in (False, True) for f in (False, True)]


def _bricks(module, seed, **kwargs):
  """Two bricks with this episode's stud radius drawn from `seed`."""
  top, bottom = module.Duplo(**kwargs), module.Duplo(**kwargs)
  top.initialize_episode_mjcf(np.random.RandomState(seed))
  bottom.initialize_episode_mjcf(np.random.RandomState(seed))
  return top, bottom


def _stacked(ours, seed=0, **kwargs):
  module, util, mjcf_module = (duplo, utils, mjcf) if ours else (dm_duplo, dm_utils, dm_mjcf)
  top, bottom = _bricks(module, seed, **kwargs)
  arena, _ = util.stack_bricks(top, bottom)
  return top, bottom, mjcf_module.Physics.from_mjcf_model(arena.mjcf_model)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@pytest.mark.parametrize("variation,color", [(0.0, (1.0, 0.0, 0.0)), (1.0, (0.2, 0.9, 0.4))])
def test_model_matches_dm_control(options, variation, color):
  """A single brick and a stacked pair compile to dm_control's models."""
  for seed in (0, 3):
    kwargs = dict(options, variation=variation, color=color)
    ours, theirs = _bricks(duplo, seed, **kwargs)[0], _bricks(dm_duplo, seed, **kwargs)[0]
    ours_physics = mjcf.Physics.from_mjcf_model(ours.mjcf_model)
    theirs_physics = dm_mjcf.Physics.from_mjcf_model(theirs.mjcf_model)
    walker_parity.assert_models_match(ours_physics.model, theirs_physics.model)
    assert ours._lower == theirs._lower and ours._upper == theirs._upper
  for flags in ("disableflags", "enableflags"):  # no native or multi-point convex collisions
    assert getattr(ours_physics.model.opt, flags) == getattr(theirs_physics.model.opt, flags)
  walker_parity.assert_models_match(
    _stacked(True, 5, **kwargs)[2].model, _stacked(False, 5, **kwargs)[2].model
  )


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_stud_radius_range(options):
  """variation=0 fixes the radius at the lower quartile; variation=1 draws it between the
  minimum and maximum of the table, the same draws as dm_control's."""
  key = dm_duplo._StudParams(**options)
  assert duplo._STUD_SIZE_PARAMS[duplo._StudParams(**options)] == dm_duplo._STUD_SIZE_PARAMS[key]
  size = duplo._STUD_SIZE_PARAMS[duplo._StudParams(**options)]
  fixed = duplo.Duplo(variation=0.0, **options)
  for seed in range(3):
    fixed.initialize_episode_mjcf(np.random.RandomState(seed))
    assert fixed._active_stud_dclass.geom.size[0] == pytest.approx(size.lower_quartile, abs=1e-15)
  varied = duplo.Duplo(variation=1.0, **options)
  theirs = dm_duplo.Duplo(variation=1.0, **options)
  radii = []
  for seed in range(20):
    varied.initialize_episode_mjcf(np.random.RandomState(seed))
    theirs.initialize_episode_mjcf(np.random.RandomState(seed))
    radii.append(varied._active_stud_dclass.geom.size[0])
    assert radii[-1] == theirs._active_stud_dclass.geom.size[0]
  assert size.minimum <= min(radii) < max(radii) <= size.maximum


def test_stacked_readings_match_dm_control():
  """Every observable of both bricks, and the contacts, after the stacked pair settles."""
  (top, bottom, ours), (dm_top, dm_bottom, theirs) = _stacked(True), _stacked(False)
  for _ in range(10):
    theirs.step()
  walker_parity.copy_state(theirs, ours)
  for brick, dm_brick in ((top, dm_top), (bottom, dm_bottom)):
    walker_parity.assert_readings_match(
      walker_parity.readings(brick, ours),
      walker_parity.readings(dm_brick, theirs),
      dynamic=("force",),
      atol=1e-5,
    )
  assert ours.data.ncon == theirs.data.ncon


def test_exception_if_color_out_of_range():
  invalid = (1.0, 0.0, 2.0)
  with pytest.raises(ValueError) as error:
    duplo.Duplo(color=invalid)
  assert str(error.value) == dm_duplo._COLOR_NOT_BETWEEN_0_AND_1.format(invalid)
  assert str(error.value) == "All values in `color` must be between 0 and 1, got (1.0, 0.0, 2.0)."


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_stud_and_hole_sites_align_when_stacked(options):
  """The bottom brick's studs sit where the top brick's holes are, after settling."""
  top, bottom, physics = _stacked(True, **options)
  for _ in range(10):
    physics.step()
  np.testing.assert_allclose(
    physics.bind(bottom.studs.ravel()).xpos, physics.bind(top.holes.ravel()).xpos, atol=1e-6
  )


def test_correct_stud_contacts():
  """Each stud of the bottom brick touches two flanges and a tube (or wall) of the top one,
  with about equal normal forces."""
  top, bottom, physics = _stacked(True)
  for _ in range(10):
    physics.step()
  contact = physics.data.contact
  ncon = physics.data.ncon
  geom1, geom2 = np.asarray(contact.geom1)[:ncon], np.asarray(contact.geom2)[:ncon]
  for site in bottom.studs.flat:
    geom_id = physics.bind(bottom.mjcf_model.find("geom", site.name)).element_id
    mine = np.flatnonzero((geom1 == geom_id) ^ (geom2 == geom_id))
    assert len(mine) == 3
    normal = []
    for i in mine:
      force = np.empty(6)
      engine.mj_contactForce(physics.model.ptr, physics.data.ptr, int(i), force)
      normal.append(force[0])
    np.testing.assert_allclose(normal[0], normal[1:], rtol=0.05)


def test_bisect_iterates_like_scipy():
  """Our bisection returns scipy.optimize.bisect's root, to the bit, on a step function."""
  from scipy import optimize

  for threshold in (0.3, 7.77, 12.0):
    step = lambda x, t=threshold: 1.0 if x > t else -1.0  # noqa: E731
    assert utils._bisect(step, 0.0, 20.0, xtol=0.01) == optimize.bisect(step, 0.0, 20.0, xtol=0.01)
  with pytest.raises(ValueError, match="different signs"):
    utils._bisect(lambda x: 1.0, 0.0, 1.0, xtol=0.01)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_separation_force_matches_dm_control(options):
  """Fixed studs (variation 0): about 10 N, as dm_control's test asks, and the very force
  dm_control measures (the same bisection steps); a varied brick (seed 1) likewise."""
  for variation, seed in ((0.0, 0), (1.0, 1)):
    kwargs = dict(options, variation=variation)
    ours = utils.measure_separation_force(*_bricks(duplo, seed, **kwargs))
    theirs = dm_utils.measure_separation_force(*_bricks(dm_duplo, seed, **kwargs))
    assert ours == theirs
    if variation == 0.0:
      assert abs(ours - 10.0) < 0.5
    else:
      assert 6.0 < ours < 18.0
