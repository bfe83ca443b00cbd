"""Before Qt starts: the system libraries its platform plugin needs, named if missing.

Without one of them (``libxcb-cursor0`` is the usual one) Qt prints a long message and
aborts the process (exit 134). This looks first, without importing Qt: it reads the
libraries Qt's own files ask for (their ELF ``DT_NEEDED`` entries), skips those that ship
with PySide6 or inside the bundle, and tries to load the others. What cannot be loaded is
named with the Debian/Ubuntu and Fedora packages that provide it.

Only the Linux ``xcb`` platform is checked, plus the libraries every platform loads with
QtGui; ``offscreen``, ``wayland`` and the others are left to Qt.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import struct
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PACKAGES", "MissingLibraries", "check", "qt_platform", "report", "needed"]

# soname -> (Debian/Ubuntu package, Fedora package)
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libz.so.1": ("zlib1g", "zlib"),
    "libzstd.so.1": ("libzstd1", "libzstd"),
}

# The libraries every platform loads (importing QtWidgets), and the xcb plugin.
_ALWAYS = ("lib/libQt6Core.so.6", "lib/libQt6Gui.so.6", "lib/libQt6Widgets.so.6")
_XCB = ("plugins/platforms/libqxcb.so",)


@dataclass(frozen=True)
class MissingLibraries:
    """Why the window cannot start on this platform: libraries and what failed."""

    platform: str
    missing: dict[str, str]  # soname -> the loader's error

    def packages(self, distro: int) -> list[str]:
        """Package names to install (0: Debian/Ubuntu, 1: Fedora), in order, once each."""
        names = [PACKAGES[s][distro] for s in self.missing if s in PACKAGES]
        return list(dict.fromkeys(names))

    def message(self) -> str:
        lines = [
            f"the window cannot start: Qt's {self.platform!r} platform needs system "
            "libraries that this machine does not have:"
        ]
        lines += [f"  {soname}" for soname in self.missing]
        unknown = [s for s in self.missing if s not in PACKAGES]
        lines += [
            "Install them:",
            f"  Debian/Ubuntu: sudo apt install {' '.join(self.packages(0))}",
            f"  Fedora:        sudo dnf install {' '.join(self.packages(1))}",
        ]
        if unknown:
            lines.append(f"  (and the packages providing {', '.join(unknown)})")
        lines.append(
            "Without a display: QT_QPA_PLATFORM=offscreen. The headless commands "
            "(aa-review --help) need none of these."
        )
        return "\n".join(lines)


def qt_platform(env: Mapping[str, str]) -> str:
    """The platform plugin Qt 6 tries first on this machine (QGuiApplication's rules)."""
    name = env.get("QT_QPA_PLATFORM", "").strip()
    if name:  # "xcb", "wayland;xcb", "offscreen:fontengine=..."
        return name.split(";")[0].split(":")[0].strip()
    if not sys.platform.startswith("linux"):
        return ""
    if env.get("XDG_SESSION_TYPE") == "wayland" and env.get("WAYLAND_DISPLAY"):
        return "wayland"
    return "xcb"


def needed(path: Path) -> list[str]:
    """The DT_NEEDED entries of a 64-bit little-endian ELF file ([] if it is not one)."""
    with path.open("rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
            return []
        (shoff,) = struct.unpack_from("<Q", head, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", head, 0x3A)
        f.seek(shoff)
        table = f.read(shentsize * shnum)
        sections = [struct.unpack_from("<IIQQQQIIQQ", table, i * shentsize) for i in range(shnum)]
        for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
            if kind != 6:  # SHT_DYNAMIC
                continue
            f.seek(offset)
            dynamic = f.read(size)
            str_offset, str_size = sections[link][4], sections[link][5]
            f.seek(str_offset)
            strings = f.read(str_size)
            out = []
            for i in range(0, size, entsize or 16):
                tag, value = struct.unpack_from("<qQ", dynamic, i)
                if tag == 0:  # DT_NULL
                    break
                if tag == 1:  # DT_NEEDED
                    out.append(strings[value : strings.index(b"\0", value)].decode())
            return out
    return []


def _qt_dir() -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    qt = Path(next(iter(spec.submodule_search_locations))) / "Qt"
    return qt if qt.is_dir() else None


def _shipped_dirs(qt: Path) -> list[Path]:
    """Folders whose libraries ship with the program: PySide6's, and the bundle's."""
    dirs = [qt / "lib"]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        dirs.append(Path(bundle))
    return dirs


def _system_needs(roots: Iterable[Path], shipped: list[Path]) -> list[str]:
    """System sonames that ``roots`` and the shipped libraries they load ask for."""
    seen: set[str] = set()
    out: list[str] = []
    todo = [r for r in roots if r.is_file()]
    while todo:
        for soname in needed(todo.pop()):
            if soname in seen:
                continue
            seen.add(soname)
            inside = next((d / soname for d in shipped if (d / soname).is_file()), None)
            if inside is not None:
                todo.append(inside)
            else:
                out.append(soname)
    return out


def _load_error(soname: str) -> str | None:
    """None if the dynamic loader finds and loads ``soname``, else its error."""
    try:
        ctypes.CDLL(soname)
    except OSError as exc:
        return str(exc)
    return None


# C and loader libraries are there whenever Python runs; not worth a dlopen each.
_BASE = (
    "libc.so",
    "libm.so",
    "libdl.so",
    "libpthread.so",
    "librt.so",
    "libstdc++.so",
    "libgcc_s.so",
    "ld-linux",
)


def check(
    env: Mapping[str, str] | None = None, load_error: Callable[[str], str | None] | None = None
) -> MissingLibraries | None:
    """What keeps Qt from starting its platform here, or None when nothing is known to."""
    env = os.environ if env is None else env
    load_error = load_error or _load_error
    platform = qt_platform(env)
    if not sys.platform.startswith("linux"):
        return None
    qt = _qt_dir()
    if qt is None:
        return None
    relative = _ALWAYS + (_XCB if platform == "xcb" else ())
    wanted = _system_needs([qt / r for r in relative], _shipped_dirs(qt))
    missing = {}
    for soname in wanted:
        if soname.startswith(_BASE):
            continue
        error = load_error(soname)
        if error is not None:
            missing[soname] = error
    return MissingLibraries(platform or "default", missing) if missing else None


_reported: dict[str, int] = {}


def report(env: Mapping[str, str] | None = None) -> int:
    """Print what keeps the window from starting and return 2, or return 0.

    Missing libraries first, then a missing X display (Qt would abort on either). With
    the process environment the answer is kept: the entry point and the window's main()
    both ask, and the second asks for free.
    """
    if env is None and "done" in _reported:
        return _reported["done"]
    use = os.environ if env is None else env
    try:
        problem = check(use)
    except OSError:  # an unreadable Qt file: let Qt say what it makes of it
        problem = None
    code = 0
    if problem is not None:
        print(f"aa-review: {problem.message()}", file=sys.stderr)
        code = 2
    elif qt_platform(use) == "xcb" and not use.get("DISPLAY"):
        print(
            "aa-review: no display to open the window on (DISPLAY is not set). Without "
            "one, QT_QPA_PLATFORM=offscreen draws off screen; the headless commands "
            "(aa-review --help) need no display.",
            file=sys.stderr,
        )
        code = 2
    if env is None:
        _reported["done"] = code
    return code
