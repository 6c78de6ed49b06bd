"""The speed kit: what a hook needs at its start without loading os, json, typing or collections."""
