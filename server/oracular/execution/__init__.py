"""Execution-checked oracles: compile and run suggested oracles, and measure them on mutants.

Modules, one job each:

- ``classpath``: what a workspace's tests need to compile and run (setting, Maven, Gradle,
  fallback), and what is missing;
- ``jvm``: the JDK/JUnit toolchain and the warm helper JVM (``java/oracular/exec``) that compiles
  with javac's API and runs tests through the JUnit Platform launcher;
- ``scratch``: scratch copies of a test class with one generated method per candidate;
- ``runner``: one javac + one JVM run per scratch class, leaving out what does not compile,
  cached by content hash;
- ``checks``: classifying candidates (holds, fails, does not compile, unchecked),
  :func:`~oracular.execution.checks.format_check`, and the background :class:`OracleChecker`;
- ``mutants``: PIT-style mutation operators over tree-sitter trees;
- ``devtests`` and ``regression``: developer tests cut before their oracle, and the recorded-value
  regression oracle, for the evaluation;
- ``evaluation``: ``oracular eval --mutants``, the bug-finding evaluation;
- ``cli``: the command-line glue.

Nothing here modifies a user's files: every compiled test is a scratch copy in the cache.
"""
