"""DeepMind's fits of the CMU motion-capture database to the CMU humanoid, as HDF5 files.

The CMU Graphics Lab Motion Capture Database (http://mocap.cs.cmu.edu/) was fitted by DeepMind
to the 2019 and 2020 versions of the CMU humanoid walker and published as one HDF5 file per
version (about 480 MB each, in the layout `loader.HDF5TrajectoryLoader` reads).
`get_path_for_cmu(version)` returns the path of a local copy: an existing one (in the cache
directory, or where dm_control keeps its own, `~/.dm_control`), or one it downloads into the
cache directory. The cache directory is `$NUMJOCO_MOCAP_DIR`, by default
`~/.cache/numjoco/mocap`.

A download goes to a temporary file next to its destination, with a progress bar on stderr, and
is renamed into place only once its SHA-256 is the published one; otherwise it is deleted and
an error names the file.
"""

import hashlib
import os
import sys
import tempfile
import time
import urllib.request

H5_FILENAME = {"2019": "cmu_2019_08756c01.h5", "2020": "cmu_2020_dfe3e9e0.h5"}
H5_URL_BASE = "https://storage.googleapis.com/dm_control/"
H5_URL = {version: H5_URL_BASE + name for version, name in H5_FILENAME.items()}
H5_BYTES = {"2019": 488143314, "2020": 476559420}
H5_SHA256 = {
  "2019": "08756c01cb4ac20da9918e70e85c32d4880c6c8c16189b02a18b79a5e79afa2b",
  "2020": "dfe3e9e0b08d32960bdafbf89e541339ca8908a9a5e7f4a2c986362890d72863",
}

CACHE_DIR_ENV = "NUMJOCO_MOCAP_DIR"
_CHUNK = 1 << 20


class ChecksumError(RuntimeError):
  """A downloaded file's SHA-256 is not the expected one."""


def cache_dir():
  """Where downloaded data files are kept."""
  return os.path.expanduser(os.environ.get(CACHE_DIR_ENV) or "~/.cache/numjoco/mocap")


def candidate_paths(version):
  """Where a copy of the `version` file is looked for, in order (the first is where a download
  goes)."""
  name = H5_FILENAME[version]
  return (os.path.join(cache_dir(), name), os.path.join(os.path.expanduser("~/.dm_control"), name))


def _check_version(version):
  if version not in H5_FILENAME:
    raise ValueError(
      f"no CMU mocap data of version {version!r}; the versions are {', '.join(H5_FILENAME)}"
    )


def get_cached_path(version="2020"):
  """The path of an existing copy of the `version` file (of the published size), or None."""
  _check_version(version)
  for path in candidate_paths(version):
    try:
      if os.path.getsize(path) == H5_BYTES[version]:
        return path
    except OSError:
      continue
  return None


class _Progress:
  """A one-line progress bar on a stream (updated at most ten times a second)."""

  def __init__(self, description, total, stream=None):
    self._description, self._total = description, total
    self._stream = stream or sys.stderr
    self._done, self._shown = 0, 0.0

  def update(self, count):
    self._done += count
    now = time.monotonic()
    if now - self._shown >= 0.1 or (self._total and self._done >= self._total):
      self._shown = now
      mib = self._done / 2**20
      if self._total:
        fraction = min(self._done / self._total, 1.0)
        bar = "#" * int(30 * fraction)
        text = f"{self._description}: [{bar:30s}] {100 * fraction:5.1f}% {mib:.1f} MiB"
      else:
        text = f"{self._description}: {mib:.1f} MiB"
      self._stream.write("\r" + text)
      self._stream.flush()

  def close(self):
    self._stream.write("\n")
    self._stream.flush()


def download(url, path, sha256, opener=None, progress=True, description=None):
  """Downloads `url` to `path`, checking its SHA-256 (hex) against `sha256`.

  The data goes to a temporary file in `path`'s directory, renamed to `path` only if the
  checksum matches; on any failure the temporary file is removed and nothing is left at `path`.
  `opener(url)` opens the URL (default `urllib.request.urlopen`).

  Raises:
    ChecksumError: the downloaded data's SHA-256 differs (the message names the file).
    OSError, urllib.error.URLError: the download or the write failed.
  """
  opener = opener or urllib.request.urlopen
  directory = os.path.dirname(os.path.abspath(path))
  os.makedirs(directory, exist_ok=True)
  digest = hashlib.sha256()
  fd, temp_path = tempfile.mkstemp(
    prefix="." + os.path.basename(path) + ".", suffix=".part", dir=directory
  )
  try:
    with os.fdopen(fd, "wb") as out, opener(url) as response:
      length = response.headers.get("Content-Length") if hasattr(response, "headers") else None
      bar = (
        _Progress(
          description or f"Downloading {os.path.basename(path)}", int(length) if length else None
        )
        if progress
        else None
      )
      try:
        while True:
          chunk = response.read(_CHUNK)
          if not chunk:
            break
          out.write(chunk)
          digest.update(chunk)
          if bar:
            bar.update(len(chunk))
      finally:
        if bar:
          bar.close()
    if digest.hexdigest() != sha256.lower():
      raise ChecksumError(
        f"the download of {os.path.basename(path)} from {url} is corrupted: "
        f"its SHA-256 is {digest.hexdigest()}, expected {sha256.lower()}; "
        "nothing was saved"
      )
    os.replace(temp_path, path)
  except BaseException:
    if os.path.exists(temp_path):
      os.unlink(temp_path)
    raise
  return path


def get_path_for_cmu(version="2020", opener=None, progress=True):
  """The path of the CMU mocap data fitted to the `version` ('2019' or '2020') CMU humanoid,
  downloaded into `cache_dir()` first if there is no local copy (see the module docstring)."""
  _check_version(version)
  path = get_cached_path(version)
  if path is None:
    path = download(
      H5_URL[version],
      candidate_paths(version)[0],
      H5_SHA256[version],
      opener=opener,
      progress=progress,
      description=f"Downloading CMU mocap data ({version})",
    )
  return path
