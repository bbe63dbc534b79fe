# a plot for a paper
experiment=sweep
x=rate
y=throughput
series=routing
where=vcs=2,traffic=uniform
title=Throughput on 8x8
xlabel=Offered load
ylabel=Accepted (flits/cycle/host)
error_bars=0
xlog=1
ylog=1
columns=2
