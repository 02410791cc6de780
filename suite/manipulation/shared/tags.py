"""Tags of the manipulation environments."""

FEATURES = "features"  # observes the props' poses
VISION = "vision"  # observes camera images instead

EASY = "easy"
