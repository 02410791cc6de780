"""numjoco engine: MuJoCo physics on numba."""
