x rate
