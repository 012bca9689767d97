# plots/lab04_keep.gp -- Lab 04 figure: time against the fraction kept, at
# n = 2^24, for the same variants as lab04_time.gp. Variables as there.
if (!exists("plotdir")) plotdir = "plots"
part = "c"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab04_keep.".fmt
if (!exists("impl")) impl = "solution"
at(p, v, c) = (strcol("part") eq p && strcol("variant") eq v && column("n") == 2**24) ? column(c) : NaN

set xrange [-0.05:1.05]
set xtics 0.1
set xlabel "fraction of the elements kept"
@LOGY_MS
set title "Lab 04: stream compaction against the fraction kept\n".subtitle("n = 2^{24}")
@open_output
plot datafile using (at("b", impl, "param")):(at("b", impl, "time_ms")) smooth unique with linespoints lw 2 lc rgb "#CC79A7" pt 11 title "map, scan, scatter", \
     '' using (at("c", impl, "param")):(at("c", impl, "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("solution", 1) pt 7 title "one pass, warp votes", \
     '' using (at("c", "cub", "param")):(at("c", "cub", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cub", 1) pt vpoint("cub", 1) title "CUB DeviceSelect", \
     '' using (at("c", "cpu_omp", "param")):(at("c", "cpu_omp", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_omp", 1) pt vpoint("cpu_omp", 1) title "CPU OpenMP", \
     '' using (at("c", "cpu_serial", "param")):(at("c", "cpu_serial", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_serial", 1) pt vpoint("cpu_serial", 1) title "CPU serial (no scan)"
