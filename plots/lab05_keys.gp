# plots/lab05_keys.gp -- Lab 05 figure: keys sorted per second against n
# (random 32-bit keys): the one-bit split (a), the four-bit sort (b), CUB
# DeviceRadixSort::SortKeys and the CPU radix sorts, and the two GPU sorts'
# own roofs, the keys per second their algorithm's bytes allow at the
# copy's speed (harness/parent/roofs.h; data measured before the roofs has
# none). Run by plots/render.sh.
# Variables: datafile, device, fmt, outfile, plotdir, impl.
if (!exists("plotdir")) plotdir = "plots"
part = "b"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab05_keys.".fmt
if (!exists("impl")) impl = "solution"
# Gkeys/s on the rows of part p, variant v, random keys (param 0).
at(p, v, c) = (strcol("part") eq p && strcol("variant") eq v && column("param") == 0) ? column(c) : NaN
gkeys(p, v) = at(p, v, "n") / (at(p, v, "time_ms") * 1e6)

@LOGX_N
set logscale y 10
set format y '%g'
set mytics 10
set ylabel "keys sorted per second (billions)"
set title "Lab 05: radix sort of 32-bit keys\n".subtitle("random keys; higher is better")

# The parts' own roofs, as lab02_bw.gp draws them, in keys per second; the
# key counts their words a key as the data's bytes give them for random
# keys (the formulas count the digits that vary).
algplot = ""
if (has_gpu && has_alg) {
    roof_gkeys(p) = at(p, impl, "n") * at(p, impl, "copy_gbps") / at(p, impl, "alg_bytes")
    stats datafile using (at("a", impl, "alg_bytes") / (4 * at("a", impl, "n"))) nooutput
    words_a = STATS_max
    stats datafile using (at("b", impl, "alg_bytes") / (4 * at("b", impl, "n"))) nooutput
    words_b = STATS_max
    algplot = sprintf(', "" using (at("b", impl, "n")):(roof_gkeys("b")) smooth unique with lines lw 1.5 dt (6, 4) ' . \
                      'lc rgb vcolor("solution", 1) title "(b) at its roof: %gn words", ' . \
                      '"" using (at("a", impl, "n")):(roof_gkeys("a")) smooth unique with lines lw 1.5 dt (6, 4) ' . \
                      'lc rgb "#CC79A7" title "(a) at its roof: %gn words"', words_b, words_a)
}
@open_output
plot datafile using (at("b", "cub", "n")):(gkeys("b", "cub")) smooth unique with linespoints lw 2 lc rgb vcolor("cub", 1) pt vpoint("cub", 1) title "CUB SortKeys", \
     '' using (at("b", impl, "n")):(gkeys("b", impl)) smooth unique with linespoints lw 2 lc rgb vcolor("solution", 1) pt 7 title "four bits per pass (b)", \
     '' using (at("a", impl, "n")):(gkeys("a", impl)) smooth unique with linespoints lw 2 lc rgb "#CC79A7" pt 11 title "one-bit split (a)", \
     '' using (at("b", "cpu_omp", "n")):(gkeys("b", "cpu_omp")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_omp", 1) pt vpoint("cpu_omp", 1) title "CPU OpenMP radix", \
     '' using (at("b", "cpu_serial", "n")):(gkeys("b", "cpu_serial")) smooth unique with linespoints lw 2 lc rgb vcolor("cpu_serial", 1) pt vpoint("cpu_serial", 1) title "CPU serial radix" \
     @algplot
