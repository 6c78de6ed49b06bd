"""How a session can reach its peers, in the words every hook uses: what was observed, never a
client version. Pure.

SendMessage by registry name reaches a peer only when both ends have a messaging socket: this
session (its client sets CLAUDE_CODE_MESSAGING_SOCKET, or its registry entry has
`messagingSocketPath`) and the peer (its registry entry has one). Messaging exists from 2.1.224 and
is off for some providers and settings (field.md), so a version says nothing; the socket does
(2.1.197 has none, and its SendMessage fails with `No agent named '…' is currently addressable`).
Under Codex there is no SendMessage at all. A part of this same session (its main thread, a running
subagent) is not a peer to message: its work comes back to the main thread.

The advice is often a line of its own, so it never opens with a name: the names are cleaned
(peerhooks.text.peertext) and every sentence that starts one opens with words of ours.
"""
from ..text import peertext
from .formats import MESSAGING_SOCKET_VARIABLE

SESSION = "session"  # the kind of a party that is another session (identity.Party.kind)
NO_SOCKET_LEAD = "Messaging: "  # before names that would otherwise open the advice, and maybe a line


def advice(peers, can_send, host="claude", listed=False):
    """The sentences that say how to coordinate with `peers` ([(name, can_message, kind)]):
    SendMessage by name to those that can receive it when this session can send, else through
    the user, saying which socket is missing; '' for none. listed: the names were just shown (a
    roster), so a group that holds every peer is not named again."""
    peers = [(peertext.name(name), can, kind) for name, can, kind in peers]
    own_parts = [name for name, _can, kind in peers if kind != SESSION]
    sessions = [(name, can) for name, can, kind in peers if kind == SESSION]
    parts = [_own_parts_advice(own_parts)] if own_parts else []
    if sessions:
        parts += _sessions_advice(sessions, can_send, host, listed)
    return " ".join(parts)


def _own_parts_advice(own_parts):
    one = len(own_parts) == 1
    return ("Not %s but part of this same session: %s; leave %s work to %s, and report back instead of taking it."
            % ("a peer" if one else "peers", ", ".join(own_parts), "its" if one else "their", "it" if one else "them"))


def _sessions_advice(sessions, can_send, host, listed):
    """[sentences] for other sessions [(name, can_message)]: through the user under Codex or when
    this session cannot send; else by name to those that can receive."""
    one = len(sessions) == 1
    names = ("it" if one else "them") if listed else ", ".join(name for name, _can in sessions)
    if host == "codex":
        return ["Coordinate with %s through the user." % names]
    if not can_send:
        return ["This session has no messaging socket (no %s): coordinate with %s through the user."
                % (MESSAGING_SOCKET_VARIABLE, names)]
    reachable = [name for name, can in sessions if can]
    others = [name for name, can in sessions if not can]
    if reachable and not others and listed:
        return ["Message %s by name with SendMessage to coordinate." % ("it" if one else "each")]
    if others and not reachable and listed:
        return ["It has no messaging socket in its registry entry: coordinate through the user." if one
                else "None has a messaging socket in its registry entry: coordinate through the user."]
    parts = ["Message %s with SendMessage to coordinate." % ", ".join(reachable)] if reachable else []
    if others:
        few = len(others) == 1
        parts.append("%s%s %s no messaging socket in %s registry entry: coordinate through the user."
                     % ("" if parts else NO_SOCKET_LEAD, ", ".join(others), "has" if few else "have",
                        "its" if few else "their"))
    return parts
