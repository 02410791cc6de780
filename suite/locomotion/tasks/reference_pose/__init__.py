"""Tasks that follow reference poses from motion capture (dm_control's
locomotion.tasks.reference_pose): `tracking.MultiClipMocapTracking`, `tracking.PlaybackTask`."""
