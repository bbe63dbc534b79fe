experiment=e
x=rate
y=latency_avg
error_bars=1
xlog=0
ylog=0
columns=1
