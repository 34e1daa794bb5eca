"""The command line as a user meets it: error messages, hostile input, fuzzing, the in-process runner."""
