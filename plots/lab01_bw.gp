# plots/lab01_bw.gp -- Lab 01 (scan) figure: effective bandwidth (GB/s)
# against n (log x), one line per variant of one part (default part c,
# exclusive scan), with the measured device copy bandwidth drawn as a dashed
# "roof", and the solution's own roof, where its algorithm's 4n words would
# move at the copy's speed (harness/parent/roofs.h; half the copy in these
# GB/s; data measured before the roofs has none).  Without a GPU (copy_gbps
# NaN) the roofs are left out and the subtitle says so.  Normally run by plots/render.sh; by hand:
#   gnuplot -e "datafile='plots/data/lab01.tsv'" plots/lab01_bw.gp
# Variables (all but datafile optional): datafile, device, copy_gbps, part,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), variants,
# bw_logy (1 = log y axis, the default; 0 = linear).

if (!exists("plotdir")) plotdir = "plots"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab01_bw.".fmt
if (!exists("bw_logy")) bw_logy = 1

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
    exit error sprintf("lab01_bw.gp: none of '%s' has rows for part '%s'", variants, part)
}

@LOGX_N
if (bw_logy) { @LOGY_GBPS } else { @LINY_GBPS }
set title "Lab 01: inclusive/exclusive scan, bandwidth\n".subtitle(partname(part))

# The roof: a dashed line at the copy bandwidth, labelled just above it.
# Plotting it as a function also keeps it inside the autoscaled y range.
roof = ""
if (has_gpu) {
    set label 1 sprintf("device copy (roof) %.0f GB/s", copy_gbps) \
        at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}

# The GPU code's own roof, in the rows' GB/s: the copy times the bytes
# counted (gbps * time) over its algorithm's (alg_bytes), as in lab02_bw.gp.
algroofs = (has_gpu && has_alg) ? keep_present("solution student") : ""
alg_gbps(v) = pick(v, "copy_gbps") * pick(v, "gbps") * pick(v, "time_ms") * 1e6 / pick(v, "alg_bytes")
# (a plot clause only when there is one: gnuplot warns of an empty iteration)
algplot = words(algroofs) == 0 ? "" : \
    ', for [i = 1:words(algroofs)] datafile using (pick(word(algroofs, i), "n")):(alg_gbps(word(algroofs, i))) ' . \
    'with lines lw 1.5 dt (6, 4) lc rgb vcolor(word(algroofs, i), i) ' . \
    'title sprintf("%s at its roof: %s", vlabel(word(algroofs, i)), alg_words(part))'

@open_output
plot for [i = 1:words(shown)] datafile \
        using (pick(word(shown, i), "n")):(pick(word(shown, i), "gbps")) \
        with linespoints lw 2 dt vdash(word(shown, i)) \
        lc rgb vcolor(word(shown, i), i) pt vpoint(word(shown, i), i) \
        title vlabel(word(shown, i)) @algplot @roof
