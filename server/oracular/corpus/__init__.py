"""Training-corpus acquisition: which Debian projects to use, and getting their sources.

Why a package of its own: the train/dev/evaluation split is by project, and keeping the list
handling and the download cache together makes it hard for later stages (mining, dictionary
building) to read a project from the wrong split or to re-download ~600 MB of tarballs.
"""

from oracular.corpus.fetch import FetchReport, PackageStatus, default_cache_dir, fetch_packages
from oracular.corpus.lists import CorpusLists, default_lists_dir, read_package_list

__all__ = [
    "CorpusLists",
    "FetchReport",
    "PackageStatus",
    "default_cache_dir",
    "default_lists_dir",
    "fetch_packages",
    "read_package_list",
]
