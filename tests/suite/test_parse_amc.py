"""suite.utils.parse_amc against dm_control's on our synthetic `.amc` files (no CMU data)."""

import pathlib

import numpy as np
import pytest

from suite import humanoid_CMU
from suite.utils import parse_amc

_DATA = pathlib.Path(__file__).parent / "data" / "synthetic.amc"

# the CMU skeletons' bones and channels, in the order .amc files write them
_R3 = ("rx", "ry", "rz")
_BONES = [
  ("root", ("tx", "ty", "tz") + _R3),
  ("lowerback", _R3),
  ("upperback", _R3),
  ("thorax", _R3),
  ("lowerneck", _R3),
  ("upperneck", _R3),
  ("head", _R3),
  ("rclavicle", ("ry", "rz")),
  ("rhumerus", _R3),
  ("rradius", ("rx",)),
  ("rwrist", ("ry",)),
  ("rhand", ("rx", "rz")),
  ("rfingers", ("rx",)),
  ("rthumb", ("rx", "rz")),
  ("lclavicle", ("ry", "rz")),
  ("lhumerus", _R3),
  ("lradius", ("rx",)),
  ("lwrist", ("ry",)),
  ("lhand", ("rx", "rz")),
  ("lfingers", ("rx",)),
  ("lthumb", ("rx", "rz")),
  ("rfemur", _R3),
  ("rtibia", ("rx",)),
  ("rfoot", ("rx", "rz")),
  ("rtoes", ("rx",)),
  ("lfemur", _R3),
  ("ltibia", ("rx",)),
  ("lfoot", ("rx", "rz")),
  ("ltoes", ("rx",)),
]
_CHANNELS = [bone + channel for bone, channels in _BONES for channel in channels]


def _write_amc(path, n_frames, seed, order=None):
  """A random smooth motion of `n_frames` frames; bones in CMU order or in `order`."""
  rng = np.random.RandomState(seed)
  phase, amplitude = rng.uniform(0, 6, 62), rng.uniform(5, 60, 62)
  lines = ["# made-up motion", ":FULLY-SPECIFIED", ":DEGREES"]
  for f in range(1, n_frames + 1):
    lines.append(str(f))
    k, bone_lines = 0, {}
    for bone, channels in _BONES:
      n = len(channels)
      values = amplitude[k : k + n] * np.sin(0.05 * f + phase[k : k + n])
      if bone == "root":
        values[:3] = [3.0 * f, 17 + 0.1 * f, -0.5 * f]
      bone_lines[bone] = " ".join([bone] + [repr(float(v)) for v in values])
      k += n
    lines += [bone_lines[bone] for bone in (order or [b for b, _ in _BONES])]
  path.write_text("\n".join(lines) + "\n")
  return path


@pytest.fixture(scope="module")
def physics_pair():
  from dm_control.suite import humanoid_CMU as dm_humanoid_CMU

  return humanoid_CMU.stand().physics, dm_humanoid_CMU.stand().physics


def test_parse_matches_dm_control():
  from dm_control.suite.utils import parse_amc as dm_parse_amc

  ours, theirs = parse_amc.parse(str(_DATA)), dm_parse_amc.parse(str(_DATA))
  assert len(ours) == len(theirs) == 7
  for a, b in zip(ours, theirs):
    assert a.dtype == b.dtype and a.shape == b.shape == (62,)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("timestep", [0.02, 0.002, 1 / 240, 0.005, 1 / 120])
def test_convert_matches_dm_control(physics_pair, timestep):
  from dm_control.suite.utils import parse_amc as dm_parse_amc

  ours = parse_amc.convert(str(_DATA), physics_pair[0], timestep)
  theirs = dm_parse_amc.convert(str(_DATA), physics_pair[1], timestep)
  assert ours._fields == theirs._fields == ("qpos", "qvel", "time")
  np.testing.assert_array_equal(ours.time, theirs.time)
  assert ours.qpos.shape == theirs.qpos.shape == (63, len(theirs.time))
  assert ours.qvel.shape == theirs.qvel.shape == (62, len(theirs.time) - 1)
  np.testing.assert_allclose(ours.qpos, theirs.qpos, rtol=0, atol=1e-12)
  np.testing.assert_allclose(ours.qvel, theirs.qvel, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("n_frames", [4, 5, 61])
def test_convert_other_lengths(physics_pair, tmp_path, n_frames):
  """The spline down to its minimum of 4 frames, and a longer clip."""
  from dm_control.suite.utils import parse_amc as dm_parse_amc

  path = str(_write_amc(tmp_path / "clip.amc", n_frames, seed=n_frames))
  for timestep in (0.02, 0.003):
    ours = parse_amc.convert(path, physics_pair[0], timestep)
    theirs = dm_parse_amc.convert(path, physics_pair[1], timestep)
    np.testing.assert_array_equal(ours.time, theirs.time)
    np.testing.assert_allclose(ours.qpos, theirs.qpos, rtol=0, atol=1e-11)
    np.testing.assert_allclose(ours.qvel, theirs.qvel, rtol=1e-9, atol=1e-9)


def test_frames_sample_the_model_exactly(physics_pair, tmp_path):
  """At the mocap rate the samples are the frames: root in metres (y-up to z-up), every hinge
  in radians from the channel of its name, a unit root quaternion."""
  path = _write_amc(tmp_path / "clip.amc", 6, seed=2)
  frames = parse_amc.parse(str(path))
  converted = parse_amc.convert(str(path), physics_pair[0], parse_amc.MOCAP_DT)
  assert converted.qpos.shape[1] == 6
  model = physics_pair[0].model
  hinges = [model.id2name(j, "joint") for j in range(1, model.njnt)]
  assert sorted(hinges) == sorted(_CHANNELS[6:])
  for f, values in enumerate(frames):
    sample = converted.qpos[:, f]
    x, y, z = values[:3] * parse_amc.CONVERSION_LENGTH
    np.testing.assert_allclose(sample[:3], [x, -z, y], atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(sample[3:7]), 1, atol=1e-12)
    for name in hinges:
      adr = model.jnt_qposadr[model.name2id(name, "joint")]
      np.testing.assert_allclose(
        sample[adr], np.deg2rad(values[_CHANNELS.index(name)]), atol=1e-12, err_msg=name
      )


def test_convert_reads_bones_by_name(physics_pair, tmp_path):
  """Bone lines in another order give the same motion (channels are matched by name)."""
  order = [b for b, _ in _BONES][::-1]
  a = parse_amc.convert(str(_write_amc(tmp_path / "a.amc", 8, seed=4)), physics_pair[0], 0.01)
  b = parse_amc.convert(
    str(_write_amc(tmp_path / "b.amc", 8, seed=4, order=order)), physics_pair[0], 0.01
  )
  np.testing.assert_array_equal(a.qpos, b.qpos)
  np.testing.assert_array_equal(a.qvel, b.qvel)


def test_too_few_frames_raise(physics_pair, tmp_path):
  path = str(_write_amc(tmp_path / "short.amc", 3, seed=0))
  with pytest.raises(ValueError):
    parse_amc.convert(path, physics_pair[0], 0.002)
