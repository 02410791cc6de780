"""The suite's model files (assets/suite/) and the includes every domain shares."""

import assets

_COMMON = ("materials.xml", "skybox.xml", "visual.xml")

# the shared include files, by the path the domain XML names them with
ASSETS = {f"./common/{name}": (assets.SUITE / "common" / name).read_bytes() for name in _COMMON}


def read_model(name: str) -> str:
  """The text of a domain's MJCF file, e.g. read_model('pendulum.xml')."""
  return (assets.SUITE / name).read_text()
