"""Opening a compiled package: safe paths, JSONL reading, the columnar row index.

Names are imported on first use (PEP 562), so a worker process that needs only
``aa_review.core.package.layout`` does not pay for pydantic and numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aa_review.core.util.lazy import lazy_exports

if TYPE_CHECKING:
    from aa_review.core.package.digest import (
        package_digest as package_digest,
    )
    from aa_review.core.package.index import (
        RowIndex as RowIndex,
    )
    from aa_review.core.package.index import (
        RowSet as RowSet,
    )
    from aa_review.core.package.loader import (
        LoadCancelled as LoadCancelled,
    )
    from aa_review.core.package.loader import (
        find_root as find_root,
    )
    from aa_review.core.package.loader import (
        open_package as open_package,
    )
    from aa_review.core.package.model import (
        LoadProgress as LoadProgress,
    )
    from aa_review.core.package.model import (
        Package as Package,
    )
    from aa_review.core.package.safepath import (
        PackageRoot as PackageRoot,
    )

_WHERE = {
    "open_package": "loader",
    "find_root": "loader",
    "LoadCancelled": "loader",
    "LoadProgress": "model",
    "Package": "model",
    "PackageRoot": "safepath",
    "RowIndex": "index",
    "RowSet": "index",
    "package_digest": "digest",
}
__all__ = list(_WHERE)


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
