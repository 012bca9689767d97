# plots/lab03_scan.gp -- Lab 03 figure: the shared-memory Blelloch scan
# without (c0) and with (c) conflict-free padding: time against n (top) and
# the speedup from padding, time(c0) / time(c) (bottom). Variables as in
# lab03_stride.gp.
if (!exists("plotdir")) plotdir = "plots"
part = "c"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab03_scan.".fmt
pk(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN

# time(c0) by log2 n, to divide the padded times by
array T0[40]
do for [i = 1:40] { T0[i] = NaN }
lg2(n) = int(floor(log(n) / log(2) + 0.5))
stats datafile using ((strcol("part") eq "c0" && strcol("variant") eq "solution") ? (T0[lg2(column("n"))] = column("time_ms"), 0) : 0) nooutput
ratio(n, t) = (lg2(n) >= 1 && lg2(n) <= 40) ? T0[lg2(n)] / t : NaN

@open_output
set multiplot layout 2, 1 title "Lab 03: scan without and with padding\n".subtitle("exclusive scan")
set lmargin 12
set rmargin 42
@LOGX_N
set xlabel ""
@LOGY_MS
plot datafile using (pk("c0", "solution", "n")):(pk("c0", "solution", "time_ms")) with linespoints lw 2 lc rgb "#D55E00" pt 9 title "Blelloch, no padding", \
     '' using (pk("c", "solution", "n")):(pk("c", "solution", "time_ms")) with linespoints lw 2 lc rgb "#0072B2" pt 7 title "Blelloch, conflict-free padding", \
     '' using (pk("c", "cub", "n")):(pk("c", "cub", "time_ms")) with linespoints lw 2 dt 3 lc rgb "#009E73" pt 13 title "CUB DeviceScan"
set xlabel "n (elements)"
unset logscale y
set format y "%.2f"
set ylabel "speedup from padding"
plot datafile using (pk("c", "solution", "n")):(ratio(column("n"), pk("c", "solution", "time_ms"))) with linespoints lw 2 lc rgb "#0072B2" pt 7 title "time(no padding) / time(padded)", \
     1 with lines ls 100 notitle
unset multiplot
