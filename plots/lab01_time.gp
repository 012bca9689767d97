# plots/lab01_time.gp -- Lab 01 (scan) figure: median time per call against
# n, log-log, one line per variant of one part (default part c, exclusive
# scan).  Normally run by plots/render.sh; by hand from the repo root:
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

@open_output
plot for [i = 1:words(shown)] datafile \
        using (pick(word(shown, i), "n")):(pick(word(shown, i), "time_ms")) \
        with linespoints lw 2 dt vdash(word(shown, i)) \
        lc rgb vcolor(word(shown, i), i) pt vpoint(word(shown, i), i) \
        title vlabel(word(shown, i))
