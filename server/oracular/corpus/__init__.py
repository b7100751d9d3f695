"""Training-corpus acquisition: which Debian projects to use, and getting their sources.

Why a package of its own: the train/dev/evaluation split is by project, and keeping the list
handling and the download cache together makes it hard for later stages (mining, dictionary
building) to read a project from the wrong split or to re-download ~600 MB of tarballs.

The submodules are imported where they are used, not here: the language server needs only
``normalise`` (through the quality checks), not the download pipeline and its progress bars.
"""
