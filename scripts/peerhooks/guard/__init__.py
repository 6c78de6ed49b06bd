"""The git guard hook: a Bash command read (hook); where it runs git or writes a file in a checkout
beside a live peer, judged (judge, stakes, verdict), with the narrow line to run instead (narrow,
shared) and the words of a refusal (reason). readonly answers most lines on the raw bytes first."""
