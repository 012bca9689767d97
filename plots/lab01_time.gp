# plots/lab01_time.gp -- Lab 01 (scan) figure: median time per call against
# n, log-log, one line per variant of one part (default part c, exclusive
# scan), and the GPU code's own roof, the least time its algorithm's 4n
# words take at the copy's speed (harness/parent/roofs.h; data measured
# before the roofs has none).  Normally run by plots/render.sh; by hand
# from the repo root:
#   gnuplot -e "datafile='plots/data/lab01.tsv'" plots/lab01_time.gp
# Variables (all but datafile optional): datafile, device, copy_gbps, part,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), variants.

if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab01_time.".fmt

# Lab 01 names.  Part b is the inclusive scan, part c the exclusive scan.
partname(p) = p eq "b" ? "part b: inclusive scan" : \
              p eq "c" ? "part c: exclusive scan" : "part ".p
vlabel(v) = \
    v eq "solution"   ? "Hillis-Steele (solution)" : \
    v eq "student"    ? "student" : \
    v eq "cpu_serial" ? "CPU serial" : \
    v eq "cpu_omp"    ? "CPU OpenMP" : \
    v eq "cub"        ? "CUB DeviceScan" : v
if (!exists("variants")) variants = "solution cpu_serial cpu_omp cub"

shown = keep_present(variants)
if (words(shown) == 0) {
    exit error sprintf("lab01_time.gp: none of '%s' has rows for part '%s'", variants, part)
}

@LOGX_N
@LOGY_MS
set title "Lab 01: inclusive/exclusive scan, time\n".subtitle(partname(part))

# The GPU code's own roof, as lab01_bw.gp draws it, in time: what the rows'
# time would be if the algorithm's bytes moved at the copy's speed.
algroofs = ""
if (has_gpu && has_alg) {
    do for [v in "solution student"] {
        if (strstrt(" ".shown." ", " ".v." ") > 0) { algroofs = algroofs.(strlen(algroofs) ? " " : "").v }
    }
}
# (a plot clause only when there is one: gnuplot warns of an empty iteration)
algplot = words(algroofs) == 0 ? "" : \
    ', for [i = 1:words(algroofs)] datafile using (pick(word(algroofs, i), "n")):(at_roof_ms(part, word(algroofs, i))) ' . \
    'with lines lw 1.5 dt (6, 4) lc rgb vcolor(word(algroofs, i), i) ' . \
    'title sprintf("%s at its roof: %s", vlabel(word(algroofs, i)), alg_words(part))'
# (the times' own range: far below the launches' few microseconds at small
# n, the roof leaves the plot instead of widening it; the key, widened by
# the roof's, goes inside, to the upper left that every line leaves empty)
if (words(algroofs) > 0) {
    set key inside left top opaque
    stats datafile using (strcol("part") eq part && strstrt(" ".shown." ", " ".strcol("variant")." ") > 0 ? \
                          column("time_ms") : NaN) nooutput
    set yrange [10**floor(log10(STATS_min)) : *]
}

@open_output
plot for [i = 1:words(shown)] datafile \
        using (pick(word(shown, i), "n")):(pick(word(shown, i), "time_ms")) \
        with linespoints lw 2 dt vdash(word(shown, i)) \
        lc rgb vcolor(word(shown, i), i) pt vpoint(word(shown, i), i) \
        title vlabel(word(shown, i)) @algplot
