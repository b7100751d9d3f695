"""The training corpus: Debian projects' developer tests, cut before their oracle, as samples.

Offline only: the editor never imports this package (a test pins it). ``lists`` and ``fetch``
choose and download the projects of each split; ``normalise`` reads a developer's oracle into the
candidates' canonical form; ``samples`` and ``mine`` turn analysed test files into the mined
datasets; ``devtests`` cuts tests for the realistic datasets (``realistic``) and the evaluations;
``dictionary`` builds the global value dictionary; ``report`` describes what was mined.

Why the split is handled in one package: the train/dev split is by project, and keeping the list
handling and the download cache together makes it hard for later stages to read a project from
the wrong split or to re-download ~600 MB of tarballs.
"""
