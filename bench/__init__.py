"""Benchmarks: ``make bench`` prints one JSON document."""
