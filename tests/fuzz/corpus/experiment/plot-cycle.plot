experiment=e
x=cycle
y=accepted
error_bars=1
xlog=0
ylog=0
columns=1
