"""Benchmark queries."""
