columns=3
