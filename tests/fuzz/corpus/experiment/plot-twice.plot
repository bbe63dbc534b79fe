experiment=e
experiment=f
