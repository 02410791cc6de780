"""engine.enums against the `mujoco` bindings: every enum, member and constant."""

import enum

import mujoco
import pytest
from mujoco.introspect import enums as introspect_enums

from engine import enums

# enums the engine relies on (from the brief); all must exist with MuJoCo's values
REQUIRED = [
  "mjtDisableBit", "mjtEnableBit", "mjtJoint", "mjtGeom", "mjtCamLight", "mjtTexture",
  "mjtTextureRole", "mjtIntegrator", "mjtCone", "mjtJacobian", "mjtSolver", "mjtEq", "mjtWrap",
  "mjtTrn", "mjtDyn", "mjtGain", "mjtBias", "mjtObj", "mjtConstraint", "mjtConstraintState",
  "mjtSensor", "mjtStage", "mjtDataType", "mjtSameFrame", "mjtLRMode", "mjtWarning", "mjtTimer",
  "mjtState", "mjtGeomInertia", "mjtMeshInertia", "mjtInertiaFromGeom", "mjtLimited",
  "mjtAlignFree",
]  # fmt: skip

CONSTANTS = [
  "mjPI", "mjMAXVAL", "mjMINVAL", "mjMINMU", "mjMINIMP", "mjMAXIMP", "mjMAXCONPAIR",
  "mjMAXTREEDEPTH", "mjMAXFLEXNODES", "mjMINAWAKE", "mjNEQDATA", "mjNDYN", "mjNGAIN", "mjNBIAS",
  "mjNFLUID", "mjNREF", "mjNIMP", "mjNSOLVER", "mjNISLAND", "mjNSENS", "mjNPOLY", "mjNGROUP",
  "mjMAXLIGHT", "mjMAXLINE", "mjMAXLINEPNT", "mjMAXOVERLAY", "mjMAXPLANEGRID", "mjDISABLESTRING",
  "mjENABLESTRING", "mjFRAMESTRING", "mjLABELSTRING", "mjTIMERSTRING", "mjRNDSTRING",
  "mjVISSTRING",
]  # fmt: skip

NAMES = [e.__name__ for e in enums.ENUMS]


def test_required_enums_present():
  for name in REQUIRED:
    assert name in NAMES, name
    assert issubclass(getattr(enums, name), enum.IntEnum)


@pytest.mark.parametrize("name", NAMES)
def test_enum_matches_bindings(name):
  ours = getattr(enums, name)
  theirs = getattr(mujoco, name)

  # same member names and values as the bindings and as mujoco.introspect
  ours_members = {k: int(v) for k, v in ours.__members__.items()}
  assert ours_members == {k: int(v) for k, v in theirs.__members__.items()}
  assert ours_members == dict(introspect_enums.ENUMS[name].values)

  # no member was swallowed as an alias of another (MuJoCo's own aliases, such as
  # mjNTOPIC == mjTOPIC_SLEEP, are aliases here too)
  assert len(list(ours)) == len(set(ours_members.values()))
  assert len(list(ours)) == len({int(v) for v in theirs.__members__.values()})


@pytest.mark.parametrize("name", NAMES)
def test_members_exported_as_plain_ints(name):
  for member_name, member in getattr(mujoco, name).__members__.items():
    value = getattr(enums, member_name)
    assert type(value) is int, member_name
    assert value == int(member), member_name


def test_member_names_unique_across_enums():
  seen = {}
  for e in enums.ENUMS:
    for member_name in e.__members__:
      assert member_name not in seen, (member_name, e.__name__, seen.get(member_name))
      seen[member_name] = e.__name__


def test_public_api_access():
  assert enums.mjtJoint.mjJNT_HINGE == enums.mjJNT_HINGE == 3
  assert enums.mjtGeom.mjGEOM_BOX == enums.mjGEOM_BOX == mujoco.mjtGeom.mjGEOM_BOX
  assert enums.mjtDisableBit.mjDSBL_CONTACT == int(mujoco.mjtDisableBit.mjDSBL_CONTACT)


@pytest.mark.parametrize("name", CONSTANTS)
def test_constants_match_bindings(name):
  ours = getattr(enums, name)
  theirs = getattr(mujoco, name)
  assert ours == theirs
  assert type(ours) is type(theirs)
