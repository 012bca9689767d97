# plots/lab04_keep.gp -- Lab 04 figure: time against the fraction kept, at
# n = 2^24, for the same variants as lab04_time.gp, and each of the two
# parts' own roof, the least time its algorithm's bytes take at the copy's
# speed, from the rows' own alg_bytes (6n + c and n + c words: they grow
# with the fraction kept; data measured before the roofs has none).
# Variables as there.
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

# The parts' own roofs, as lab04_time.gp draws them, within the times' own
# range; the key, widened by theirs, below the plot, which keeps its width.
algplot = ""
if (has_gpu && has_alg) {
    set key outside center bottom horizontal maxrows 4
    set bmargin 10
    roof_ms(p) = at(p, impl, "alg_bytes") / (at(p, impl, "copy_gbps") * 1e6)
    algplot = sprintf(', "" using (at("b", impl, "param")):(roof_ms("b")) smooth unique with lines lw 1.5 dt (6, 4) ' . \
                      'lc rgb "#CC79A7" title "map, scan, scatter at its roof: %s", ' . \
                      '"" using (at("c", impl, "param")):(roof_ms("c")) smooth unique with lines lw 1.5 dt (6, 4) ' . \
                      'lc rgb vcolor("solution", 1) title "one pass at its roof: %s"', alg_brief("b"), alg_brief("c"))
    stats datafile using ((strcol("part") eq "b" || strcol("part") eq "c") && column("n") == 2**24 ? \
                          column("time_ms") : NaN) nooutput
    set yrange [10**floor(log10(STATS_min)) : *]
}
@open_output
plot datafile using (at("b", impl, "param")):(at("b", impl, "time_ms")) smooth unique with linespoints lw 2 lc rgb "#CC79A7" pt 11 title "map, scan, scatter", \
     '' using (at("c", impl, "param")):(at("c", impl, "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("solution", 1) pt 7 title "one pass, warp votes", \
     '' using (at("c", "cub", "param")):(at("c", "cub", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cub", 1) pt vpoint("cub", 1) title "CUB DeviceSelect", \
     '' using (at("c", "cpu_omp", "param")):(at("c", "cpu_omp", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_omp", 1) pt vpoint("cpu_omp", 1) title "CPU OpenMP", \
     '' using (at("c", "cpu_serial", "param")):(at("c", "cpu_serial", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_serial", 1) pt vpoint("cpu_serial", 1) title "CPU serial (no scan)" \
     @algplot
