# plots/lab04_time.gp -- Lab 04 figure: median time per call against n
# (half of the input kept): the CPU references, map-scan-scatter (b), the
# one-pass warp-vote compaction (c) and CUB DeviceSelect. Run by
# plots/render.sh. Variables: datafile, device, fmt, outfile, plotdir, impl.
if (!exists("plotdir")) plotdir = "plots"
part = "c"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab04_time.".fmt
if (!exists("impl")) impl = "solution"
at(p, v, c) = (strcol("part") eq p && strcol("variant") eq v && abs(column("param") - 0.5) < 1e-9) ? column(c) : NaN

@LOGX_N
@LOGY_MS
set title "Lab 04: stream compaction, time\n".subtitle("keep 0.5 (the elements > 0)")
@open_output
plot datafile using (at("b", impl, "n")):(at("b", impl, "time_ms")) smooth unique with linespoints lw 2 lc rgb "#CC79A7" pt 11 title "map, scan, scatter", \
     '' using (at("c", impl, "n")):(at("c", impl, "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("solution", 1) pt 7 title "one pass, warp votes", \
     '' using (at("c", "cub", "n")):(at("c", "cub", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cub", 1) pt vpoint("cub", 1) title "CUB DeviceSelect", \
     '' using (at("c", "cpu_omp", "n")):(at("c", "cpu_omp", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_omp", 1) pt vpoint("cpu_omp", 1) title "CPU OpenMP", \
     '' using (at("c", "cpu_serial", "n")):(at("c", "cpu_serial", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_serial", 1) pt vpoint("cpu_serial", 1) title "CPU serial (no scan)"
