"""Test tooling that ships with the package: the differential test of the engines."""
