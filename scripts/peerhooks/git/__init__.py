"""The git model and git's state: what each git invocation reaches of the uncommitted work (kinds, args,
classify, forms), whether git refuses it, and the one reader of a checkout (gitrepo, gitstate, lookup)."""
