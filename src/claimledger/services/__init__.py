"""What a command does, as one call: the steps that read the evidence store, run or
write, and hand a result back for the command line to show (see docs/architecture.md)."""
