"""Running the code under test, for the editor: observed values and execution-checked oracles.

Modules, one job each:

- ``classpath``: what a workspace's tests need to compile and run (setting, Maven, Gradle,
  fallback), and what is missing;
- ``build_tools``: Maven's and Gradle's answer, offline, remembered per build-file fingerprint;
- ``sandbox``: containing the helper JVM (Bubblewrap, caps);
- ``poms``: reading ``pom.xml`` files without Maven and resolving their dependencies to jars in
  local repositories (the fallback's POM dependencies, and POM-declared resource folders);
- ``toolchain``: the JDK and JUnit Platform jars, the helper JVM's classes compiled once into the
  cache, the cache root and a cross-process file lock;
- ``jvm``: the warm helper JVM (``java/oracular/exec``) that compiles with javac's API and runs
  tests through the JUnit Platform launcher, and the values of its line protocol;
- ``scratch``: scratch copies of a test class with one generated method per candidate;
- ``runner``: one javac + one JVM run per scratch class, leaving out what does not compile,
  cached by content hash;
- ``observe``: running oracle-free prefixes to read their targets' values;
- ``oracle_checks``: classifying candidates (holds, fails, does not compile, unchecked),
  :func:`~oracular.execution.oracle_checks.format_check`, and the background :class:`OracleChecker`.

What measures these offline (mutants, the bug-finding evaluation, the regression baseline) lives
in :mod:`oracular.evaluation`. Nothing here modifies a user's files: every compiled test is a
scratch copy in the cache.
"""
