"""Where the Kinova models live (dm_control.entities.manipulators.kinova.assets_path)."""

import assets

# jaco_arm.xml and jaco_hand.xml
KINOVA_ROOT = str(assets.MANIPULATION / "kinova")
