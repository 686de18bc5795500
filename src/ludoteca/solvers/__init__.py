"""Exact solvers and hint search over the game engines; compiled kernels live here too."""
