# plots/lab04_time.gp -- Lab 04 figure: median time per call against n
# (half of the input kept): the CPU references, map-scan-scatter (b), the
# one-pass warp-vote compaction (c) and CUB DeviceSelect, and each of the
# two parts' own roof, the least time its algorithm's bytes take at the
# copy's speed (harness/parent/roofs.h; data measured before the roofs has
# none). Run by plots/render.sh. Variables: datafile, device, fmt,
# outfile, plotdir, impl.
if (!exists("plotdir")) plotdir = "plots"
part = "c"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab04_time.".fmt
if (!exists("impl")) impl = "solution"
at(p, v, c) = (strcol("part") eq p && strcol("variant") eq v && abs(column("param") - 0.5) < 1e-9) ? column(c) : NaN

@LOGX_N
@LOGY_MS
set title "Lab 04: stream compaction, time\n".subtitle("keep 0.5 (the elements > 0)")

# The parts' own roofs, as lab02_bw.gp draws them, in time, within the
# times' own range (far below the launches' microseconds at small n, a
# roof leaves the plot instead of widening it).
algplot = ""
if (has_gpu && has_alg) {
    roof_ms(p) = at(p, impl, "alg_bytes") / (at(p, impl, "copy_gbps") * 1e6)
    algplot = sprintf(', "" using (at("b", impl, "n")):(roof_ms("b")) smooth unique with lines lw 1.5 dt (6, 4) ' . \
                      'lc rgb "#CC79A7" title "map, scan, scatter at its roof: %s", ' . \
                      '"" using (at("c", impl, "n")):(roof_ms("c")) smooth unique with lines lw 1.5 dt (6, 4) ' . \
                      'lc rgb vcolor("solution", 1) title "one pass at its roof: %s"', alg_brief("b"), alg_brief("c"))
    stats datafile using ((strcol("part") eq "b" || strcol("part") eq "c") && abs(column("param") - 0.5) < 1e-9 ? \
                          column("time_ms") : NaN) nooutput
    set yrange [10**floor(log10(STATS_min)) : *]
}
@open_output
plot datafile using (at("b", impl, "n")):(at("b", impl, "time_ms")) smooth unique with linespoints lw 2 lc rgb "#CC79A7" pt 11 title "map, scan, scatter", \
     '' using (at("c", impl, "n")):(at("c", impl, "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("solution", 1) pt 7 title "one pass, warp votes", \
     '' using (at("c", "cub", "n")):(at("c", "cub", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cub", 1) pt vpoint("cub", 1) title "CUB DeviceSelect", \
     '' using (at("c", "cpu_omp", "n")):(at("c", "cpu_omp", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_omp", 1) pt vpoint("cpu_omp", 1) title "CPU OpenMP", \
     '' using (at("c", "cpu_serial", "n")):(at("c", "cpu_serial", "time_ms")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_serial", 1) pt vpoint("cpu_serial", 1) title "CPU serial (no scan)" \
     @algplot
