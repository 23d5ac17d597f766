"""Grades from evidence: the rules, accepting a new wording, and the artifacts a claim
may be demonstrated by."""
