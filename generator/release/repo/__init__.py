"""A mod maker's repository: `new` scaffolds it with its pin and git history, `init-ci` its
workflow, `build --check` says what in its output folder is not what a build makes.
"""
