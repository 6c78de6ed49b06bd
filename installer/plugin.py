"""The peerhooks plugin as Claude Code records it: which copies are installed, which of them are
enabled where install.py runs, and which of our hooks each one wires.

A plugin's hooks run beside the settings files' hooks, never instead of them (Claude Code runs an
identical command from two settings files once, but a plugin's copy again), so install.py must know
whether an enabled plugin already wires peerhooks before it wires the hooks a second time.

Read from the client's own files (2.1.197 and 2.1.332): `plugins/installed_plugins.json` in the Claude
home lists each install (`{"version": 2, "plugins": {"<name>@<marketplace>": [{"scope", "installPath",
"projectPath"?, ...}]}}`, version 1 one record per id); `enabledPlugins` in the settings files says
`true` or `false` per id, the last file read winning (user < project < local); an id no settings file
names is enabled unless its `.claude-plugin/plugin.json` sets `"defaultEnabled": false` (both builds
describe defaultEnabled as "whether the plugin starts enabled when the user has no explicit
enabled/disabled setting for it (default: true)").
"""
import json
import os
from dataclasses import dataclass
from typing import List, Optional, Tuple

from installer.wiring import Registration, registrations

INDEX = os.path.join("plugins", "installed_plugins.json")
HOOKS_FILE = os.path.join("hooks", "hooks.json")
MANIFEST = os.path.join(".claude-plugin", "plugin.json")
PROJECT_SCOPES = ("project", "local")  # an install that applies only in its projectPath


@dataclass(frozen=True)
class Install:
    plugin_id: str  # `<name>@<marketplace>`
    path: str  # the folder holding the plugin's files
    project: Optional[str] = None  # the checkout a project- or local-scope install applies in


@dataclass(frozen=True)
class Copy:
    """An installed copy of a plugin whose hooks/hooks.json runs our scripts."""
    install: Install
    registrations: Tuple[Registration, ...]
    enabled: bool
    why: str  # how its state was decided, for a person: "enabled in …", "disabled in …", "enabled by default"

    @property
    def where(self):
        return "plugin %s at %s" % (self.install.plugin_id, self.install.path)

    @property
    def disable_command(self):
        return "claude plugin disable %s" % self.install.plugin_id


def read_json(path):
    """A JSON file's value, or None when absent or unreadable (the caller says which it needs)."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None


def installs(home):
    """Every plugin install Claude Code recorded (version 2: id -> list of installs; version 1: id ->
    one install). Without that index, every versioned folder under plugins/cache/<marketplace>/<plugin>/
    counts, as user-scope installs."""
    plugins_dir = os.path.join(home, "plugins")
    index = read_json(os.path.join(home, INDEX))
    found = []
    if isinstance(index, dict):
        records = index.get("plugins", {})
        for plugin_id, value in records.items() if isinstance(records, dict) else []:
            for record in value if isinstance(value, list) else [value]:
                if isinstance(record, dict) and isinstance(record.get("installPath"), str):
                    project = record.get("projectPath") if record.get("scope") in PROJECT_SCOPES else None
                    found.append(Install(plugin_id, record["installPath"],
                                         project if isinstance(project, str) else None))
        return found
    cache = os.path.join(plugins_dir, "cache")
    for marketplace in _folders(cache):
        for plugin in _folders(os.path.join(cache, marketplace)):
            for version in _folders(os.path.join(cache, marketplace, plugin)):
                found.append(Install("%s@%s" % (plugin, marketplace), os.path.join(cache, marketplace, plugin, version)))
    return found


def _folders(path):
    try:
        return sorted(name for name in os.listdir(path) if os.path.isdir(os.path.join(path, name)))
    except OSError:
        return []


def enabled_state(settings_sources, plugin_id):
    """(state, label) of the last settings file that names the plugin (local over project over
    user): state True, False or another value (2.1.197 reads a version list as enabled, 2.1.332 as
    off); (None, None) when none does. settings_sources: [(label, settings value)] in reading order."""
    state = label = None
    for source_label, settings in settings_sources:
        enabled = settings.get("enabledPlugins") if isinstance(settings, dict) else None
        if isinstance(enabled, dict) and plugin_id in enabled:
            state, label = enabled[plugin_id], source_label
    return state, label


def _is_enabled(install, settings_sources):
    state, label = enabled_state(settings_sources, install.plugin_id)
    if state is False:
        return False, "disabled in %s" % label
    if state is not None:
        return True, "enabled in %s" % label
    manifest = read_json(os.path.join(install.path, MANIFEST))
    if isinstance(manifest, dict) and manifest.get("defaultEnabled") is False:
        return False, "off by default: its plugin.json sets defaultEnabled false and no settings file enables it"
    return True, "enabled by default: no settings file names it"


def _same_folder(a, b):
    return a is not None and b is not None and os.path.realpath(a) == os.path.realpath(b)


def copies(home, settings_sources, checkout):
    """The installed copies that wire our hooks and apply where install.py runs (a project-scope
    install only in its own checkout), each with whether it is enabled there."""
    found = []
    for install in installs(home):
        if install.project is not None and not _same_folder(install.project, checkout):
            continue
        hooks = read_json(os.path.join(install.path, HOOKS_FILE))
        where = "plugin %s at %s" % (install.plugin_id, install.path)
        mine = registrations(hooks if isinstance(hooks, dict) else {}, where, deduplicated=False)
        if mine:
            enabled, why = _is_enabled(install, settings_sources)
            found.append(Copy(install, tuple(mine), enabled, why))
    return found


def enabled_copies(home, settings_sources, checkout) -> List[Copy]:
    return [copy for copy in copies(home, settings_sources, checkout) if copy.enabled]
