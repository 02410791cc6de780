"""Collision detection: the driver (broadphase, filtering, contact parameters) and the
narrowphase pair functions of MuJoCo's engine_collision_*.c files."""
