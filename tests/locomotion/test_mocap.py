"""suite.locomotion.mocap against dm_control 1.0.50's locomotion.mocap: the same HDF5 files
(ours written by tests/locomotion/mocap_files.py, and dm_control's own test file) read by both
loaders give equal trajectories, field by field, for several windows and modifiers; bad files
and a missing h5py give clear errors; the CMU data download (from a file:// URL) checks its
SHA-256 and leaves nothing behind when it does not match."""

import hashlib
import os
import sys

import h5py
import numpy as np
import pytest

from suite.locomotion.mocap import cmu_mocap_data
from suite.locomotion.mocap import loader
from suite.locomotion.mocap import mocap_types
from suite.locomotion.mocap import trajectory
from tests.locomotion import mocap_files
from tests.locomotion import mocap_oracle


@pytest.fixture(scope="module")
def cmu_file(tmp_path_factory):
  return mocap_files.write_cmu_v2020_file(str(tmp_path_factory.mktemp("mocap") / "cmu.h5"))


@pytest.fixture(params=["ours", "dm_control"])
def data_file(request, cmu_file):
  return cmu_file if request.param == "ours" else mocap_files.dm_control_test_file()


@pytest.fixture
def dm_loader():
  with mocap_oracle.patched_loader() as module:
    yield module


# ---- parity of what is loaded ----


def assert_records_equal(ours, theirs, label):
  """Our record equals dm_control's message, field by field (recursively)."""
  for field in theirs.DESCRIPTOR.fields:
    if field.name == "timesteps":
      continue
    mine, value = getattr(ours, field.name), getattr(theirs, field.name)
    where = f"{label}.{field.name}"
    if field.type == field.TYPE_MESSAGE and field.is_repeated:
      assert len(mine) == len(value), where
      for i, (a, b) in enumerate(zip(mine, value)):
        assert_records_equal(a, b, f"{where}[{i}]")
    elif field.type == field.TYPE_MESSAGE:
      assert_records_equal(mine, value, where)
    elif field.is_repeated:
      assert list(mine) == list(value), where
    else:
      assert mine == value and type(mine) is type(value), where


def assert_timesteps_equal(ours, theirs, label, atol=0.0):
  assert len(ours.walkers) == len(theirs.walkers) and len(ours.props) == len(theirs.props)
  for kind, fields in (
    ("walkers", mocap_types.WALKER_POSE_FIELDS),
    ("props", mocap_types.PROP_POSE_FIELDS),
  ):
    for i, (a, b) in enumerate(zip(getattr(ours, kind), getattr(theirs, kind))):
      for name in fields:
        np.testing.assert_allclose(
          getattr(a, name),
          np.array(getattr(b, name)),
          rtol=0,
          atol=atol,
          err_msg=f"{label} {kind}[{i}].{name}",
        )


def assert_trajectories_equal(ours, theirs, label="", atol=0.0):
  """Equal records, steps, windows and arrays (the arrays to `atol`: 0 but for modifiers that
  rotate, whose rotation matrices differ from dm_control's in their last bits)."""
  assert_records_equal(ours._proto, theirs._proto, label)
  assert len(ours._proto.timesteps) == len(theirs._proto.timesteps)
  for t, (a, b) in enumerate(zip(ours._proto.timesteps, theirs._proto.timesteps)):
    assert_timesteps_equal(a, b, f"{label} step {t}", atol)
  for name in (
    "identifier",
    "dt",
    "start_step",
    "end_step",
    "start_time",
    "end_time",
    "clip_end_time",
    "duration",
    "num_steps",
  ):
    assert getattr(ours, name) == getattr(theirs, name), f"{label} {name}"
  a, b = ours.as_dict(), theirs.as_dict()
  assert list(a) == list(b), label
  for key in b:
    assert a[key].shape == b[key].shape and a[key].dtype == b[key].dtype, f"{label} {key}"
    np.testing.assert_allclose(a[key], b[key], rtol=0, atol=atol, err_msg=f"{label} {key}")
    assert not a[key].flags.writeable
  for step in range(-1, ours.num_steps + 2):
    time = step * ours.dt
    assert_timesteps_equal(
      ours.get_timestep_data(time), theirs.get_timestep_data(time), f"{label} data at {time}", atol
    )


WINDOWS = [
  dict(),
  dict(start_step=3),
  dict(end_step=7),
  dict(start_step=2, end_step=6),
  dict(start_time=0.15, zero_out_velocities=False),
  dict(end_time=float("inf")),
  dict(start_step=1, end_step=10000, zero_out_velocities=False),
]


def test_loader_parity(data_file, dm_loader):
  """Every clip, in several windows, loads to the same records, steps, window and arrays."""
  ours, theirs = loader.HDF5TrajectoryLoader(data_file), dm_loader.HDF5TrajectoryLoader(data_file)
  assert ours.keys() == tuple(theirs.keys())
  for key in ours.keys():
    for window in WINDOWS:
      if "start_time" in window:
        window = dict(window, start_time=3 * ours.get_trajectory(key).dt)
      assert_trajectories_equal(
        ours.get_trajectory(key, **window),
        theirs.get_trajectory(key.encode(), **window),
        f"{key} {window}",
      )


def test_trajectory_window_setters_and_errors(cmu_file, dm_loader):
  ours = loader.HDF5TrajectoryLoader(cmu_file).get_trajectory("CMU_901_01")
  theirs = dm_loader.HDF5TrajectoryLoader(cmu_file).get_trajectory("CMU_901_01")
  for name, value in (
    ("start_step", 4),
    ("end_step", 20),
    ("end_time", 0.6),
    ("start_time", 0.09),
    ("end_step", 500),
  ):
    setattr(ours, name, value)
    setattr(theirs, name, value)
    assert_trajectories_equal(ours, theirs, f"{name}={value}")
  with pytest.raises(ValueError, match="multiple of dt"):
    ours.start_time = 0.01
  with pytest.raises(ValueError, match="not both"):
    trajectory.Trajectory(ours._proto, start_time=0.03, start_step=1)


def test_modifiers_parity(data_file, dm_loader):
  """The z offset, appendage fixer, prop mass limiter and resizer change the clip alike."""
  from dm_control.locomotion.mocap import loader as dm_mods

  for ours_mod, their_mod in (
    (loader.ZOffsetter(0.25), dm_mods.ZOffsetter(0.25)),
    (loader.AppendageFixer(), dm_mods.AppendageFixer()),
    (loader.PropMassLimiter(2.5), dm_mods.PropMassLimiter(2.5)),
    (loader.PropResizer(size_factor=1.5, mass=4.0), dm_mods.PropResizer(size_factor=1.5, mass=4.0)),
    (
      loader.PropResizer(size_delta=[0.1, 0.2, 0.3], mass=1.0),
      dm_mods.PropResizer(size_delta=[0.1, 0.2, 0.3], mass=1.0),
    ),
  ):
    ours = loader.HDF5TrajectoryLoader(data_file, proto_modifier=ours_mod)
    theirs = dm_loader.HDF5TrajectoryLoader(data_file, proto_modifier=their_mod)
    for key in ours.keys():
      a, b = ours.get_trajectory(key, start_step=2), theirs.get_trajectory(key, start_step=2)
      assert_trajectories_equal(a, b, f"{key} {type(ours_mod).__name__}", atol=1e-15)
      assert_trajectories_equal(
        a.get_modified_trajectory(ours_mod),
        b.get_modified_trajectory(their_mod),
        f"{key} modified twice",
        atol=1e-15,
      )
  with pytest.raises(ValueError, match="not callable"):
    loader.HDF5TrajectoryLoader(data_file, proto_modifier=[1])
  with pytest.raises(ValueError, match="Only one"):
    loader.PropResizer(size_factor=2.0, size_delta=1.0)


def test_timestep_views_write_through(cmu_file):
  """A change through `timesteps[t]` is a change of the clip's arrays (as a proto's)."""
  proto = loader.HDF5TrajectoryLoader(cmu_file)._get_proto_for_key("CMU_901_01")
  before = proto.walker_poses[0]["position"][5].copy()
  proto.timesteps[5].walkers[0].position[2] += 1.0
  np.testing.assert_array_equal(proto.walker_poses[0]["position"][5], before + [0, 0, 1])
  with pytest.raises(ValueError, match="3 values"):
    proto.timesteps[5].walkers[0].position = [1.0, 2.0]
  with pytest.raises(IndexError):
    proto.timesteps[proto.num_steps]


def test_configure_walkers_and_props_match_dm_control(cmu_file, dm_loader):
  """Marker sites and props built from a clip compile as dm_control's do."""
  from dm_control import mjcf as dm_mjcf
  from dm_control.locomotion import walkers as dm_walkers

  import mjcf
  from suite.locomotion import walkers

  ours = loader.HDF5TrajectoryLoader(cmu_file).get_trajectory("CMU_902_01")
  theirs = dm_loader.HDF5TrajectoryLoader(cmu_file).get_trajectory("CMU_902_01")
  our_walker = walkers.CMUHumanoidPositionControlledV2020()
  their_walker = dm_walkers.CMUHumanoidPositionControlledV2020()
  ours.configure_walkers(our_walker)
  theirs.configure_walkers([their_walker])
  assert our_walker.list_of_site_names == their_walker.list_of_site_names == ["_head", "_left_hand"]
  a = mjcf.Physics.from_mjcf_model(our_walker.mjcf_model)
  b = dm_mjcf.Physics.from_mjcf_model(their_walker.mjcf_model)
  for name in our_walker.list_of_site_names:
    for field in ("pos", "size", "rgba", "group", "type"):
      np.testing.assert_allclose(
        getattr(a.named.model, f"site_{field}")[name],
        getattr(b.named.model, f"site_{field}")[name],
        err_msg=name,
      )
  (our_prop,), (their_prop,) = (
    ours.create_props(priority_friction=True),
    theirs.create_props(priority_friction=True),
  )
  a = mjcf.Physics.from_mjcf_model(our_prop.mjcf_model)
  b = dm_mjcf.Physics.from_mjcf_model(their_prop.mjcf_model)
  for field in (
    "geom_type",
    "geom_size",
    "geom_rgba",
    "geom_friction",
    "geom_priority",
    "geom_condim",
    "body_mass",
    "sensor_type",
    "sensor_dim",
  ):
    np.testing.assert_allclose(
      getattr(a.model, field), getattr(b.model, field), rtol=1e-12, err_msg=field
    )


# ---- bad input ----


def test_missing_file(tmp_path):
  with pytest.raises(FileNotFoundError, match="no motion-capture file"):
    loader.HDF5TrajectoryLoader(tmp_path / "none.h5")


def test_not_an_hdf5_file(tmp_path):
  path = tmp_path / "junk.h5"
  path.write_bytes(b"this is not HDF5" * 100)
  with pytest.raises(ValueError, match="not a readable HDF5 file"):
    loader.HDF5TrajectoryLoader(path)


@pytest.mark.parametrize(
  "damage, message",
  [
    (lambda clip: clip.attrs.__delitem__("num_steps"), "no 'num_steps' attribute"),
    (lambda clip: clip.__delitem__("walkers"), "has no 'walkers'"),
    (lambda clip: clip["walkers/walker_0"].__delitem__("joints"), "has no 'joints'"),
    (lambda clip: clip["walkers"].move("walker_0", "walker_7"), "has no 'walker_0'"),
    (lambda clip: clip["props/prop_0"].__delitem__("quaternion"), "has no 'quaternion'"),
    (lambda clip: clip.attrs.__setitem__("num_steps", 99), r"expected \(size, 99\)"),
  ],
)
def test_wrong_layout(tmp_path, damage, message):
  path = mocap_files.write_cmu_v2020_file(
    str(tmp_path / "bad.h5"), clips=("CMU_1",), num_steps=(12,)
  )
  with h5py.File(path, "r+") as f:
    damage(f["CMU_1"])
  with pytest.raises(ValueError, match=message):
    loader.HDF5TrajectoryLoader(path).get_trajectory("CMU_1")


def test_unknown_clip(cmu_file):
  with pytest.raises(KeyError, match="no trajectory 'CMU_000_00'.*CMU_901_01"):
    loader.HDF5TrajectoryLoader(cmu_file).get_trajectory("CMU_000_00")


def test_missing_h5py(monkeypatch, cmu_file):
  monkeypatch.setitem(sys.modules, "h5py", None)
  with pytest.raises(ImportError, match=r"pip install numjoco\[mocap\]"):
    loader.HDF5TrajectoryLoader(cmu_file)


# ---- the CMU data download ----


@pytest.fixture
def fake_cmu(tmp_path, monkeypatch):
  """The 2020 file's published URL, size and SHA-256 replaced by a small local file's; the
  cache directory and home directory in tmp_path."""
  source = tmp_path / "server" / "cmu_small.h5"
  source.parent.mkdir()
  source.write_bytes(os.urandom(3 * 2**20 + 17))
  digest = hashlib.sha256(source.read_bytes()).hexdigest()
  monkeypatch.setitem(cmu_mocap_data.H5_URL, "2020", source.as_uri())
  monkeypatch.setitem(cmu_mocap_data.H5_BYTES, "2020", source.stat().st_size)
  monkeypatch.setitem(cmu_mocap_data.H5_SHA256, "2020", digest)
  monkeypatch.setenv(cmu_mocap_data.CACHE_DIR_ENV, str(tmp_path / "cache"))
  monkeypatch.setenv("HOME", str(tmp_path / "home"))
  return source


def test_download_into_cache(fake_cmu, tmp_path, capsys):
  path = cmu_mocap_data.get_path_for_cmu("2020")
  assert path == str(tmp_path / "cache" / "cmu_2020_dfe3e9e0.h5")
  assert open(path, "rb").read() == fake_cmu.read_bytes()
  assert "100.0%" in capsys.readouterr().err  # the progress bar reached the end
  assert os.listdir(tmp_path / "cache") == ["cmu_2020_dfe3e9e0.h5"]
  fake_cmu.unlink()  # a second call uses the cached copy
  assert cmu_mocap_data.get_path_for_cmu("2020", progress=False) == path


def test_download_checksum_mismatch_leaves_nothing(fake_cmu, tmp_path, monkeypatch):
  monkeypatch.setitem(cmu_mocap_data.H5_SHA256, "2020", "0" * 64)
  with pytest.raises(cmu_mocap_data.ChecksumError, match="cmu_2020_dfe3e9e0.h5.*corrupted"):
    cmu_mocap_data.get_path_for_cmu("2020", progress=False)
  assert os.listdir(tmp_path / "cache") == []


def test_download_interrupted_leaves_nothing(fake_cmu, tmp_path):
  class Broken:
    headers = {"Content-Length": "100"}

    def __init__(self):
      self.calls = 0

    def read(self, size):
      self.calls += 1
      if self.calls > 1:
        raise ConnectionResetError("connection reset")
      return b"x" * 10

    def __enter__(self):
      return self

    def __exit__(self, *args):
      return False

  with pytest.raises(ConnectionResetError):
    cmu_mocap_data.get_path_for_cmu("2020", opener=lambda url: Broken(), progress=False)
  assert os.listdir(tmp_path / "cache") == []


def test_cached_copy_of_dm_control_is_used(fake_cmu, tmp_path):
  home_copy = tmp_path / "home" / ".dm_control" / "cmu_2020_dfe3e9e0.h5"
  home_copy.parent.mkdir(parents=True)
  home_copy.write_bytes(fake_cmu.read_bytes())
  assert cmu_mocap_data.get_path_for_cmu("2020") == str(home_copy)


def test_unknown_version():
  with pytest.raises(ValueError, match="versions are 2019, 2020"):
    cmu_mocap_data.get_path_for_cmu("2021")
