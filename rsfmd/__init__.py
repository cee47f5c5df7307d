"""rsfmd."""
