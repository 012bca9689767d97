# plots/lab07_threads.gp -- Lab 07, part a: the OpenMP version's speedup
# against its threads, on the matrices `lab07 table` sweeps (cant's and
# webbase-1M's stand-ins, the seed's iterations), with the ideal line.
# Each time is segspmv_omp's alone (the table subtracts the copies to the
# host and back); the speedup is against the same code on one thread. The
# key gives each matrix's one-thread time. No algorithm's roof: part a
# runs on the host, its rows state no bytes (alg_bytes nan), and the only
# copy bandwidth measured is the GPU's (docs/roofs.md).
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab07.tsv'" plots/lab07_threads.gp
# Variables: datafile, device, copy_gbps, fmt, outfile, plotdir, impl.
me = "lab07_threads.gp"
if (!exists("plotdir")) plotdir = "plots"
if (!exists("datafile")) datafile = plotdir."/data/lab07.tsv"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab07_threads.".fmt
_sol = 0
stats datafile using (_sol = _sol + (strcol("variant") eq "solution"), 0) nooutput
if (!exists("impl")) impl = _sol > 0 ? "solution" : "student"

arow(z) = strcol("part") eq "a" && strstrt(strcol("variant"), impl." ") == 1 && column("time_ms") > 0
threads(z) = word(strcol("variant"), 2) + 0
# the matrices with a one-thread row: the swept ones
swept = " "
stats datafile using ((arow(0) && threads(0) == 1 && strstrt(swept, " ".strcol("param_label")." ") == 0) \
      ? (swept = swept.strcol("param_label")." ", 0) : 0) nooutput
nsw = words(swept)
if (nsw == 0) {
    exit error sprintf("%s: no part a rows on one thread ('%s 1 thread') in '%s' (run lab07 table --out)", me, impl, datafile)
}
array T1[nsw]
array TMAX[nsw]
do for [j = 1:nsw] {
    _m = word(swept, j); _t1 = NaN; _tm = 1
    stats datafile using ((arow(0) && strcol("param_label") eq _m) ? \
          (_t1 = threads(0) == 1 ? column("time_ms") : _t1, _tm = threads(0) > _tm ? threads(0) : _tm, 0) : 0) nooutput
    T1[j] = _t1; TMAX[j] = _tm
}
tmax = 1
do for [j = 1:nsw] { tmax = TMAX[j] > tmax ? TMAX[j] : tmax }

@open_output
set title "Lab 07, part a: OpenMP speedup against threads\n". \
    sprintf("{/*0.75 %s's host; segspmv\\_omp alone (copies subtracted), the seed's iterations}", esc(device))
set logscale x 2
set logscale y 2
set format x "%g"
set format y "%g"
set xrange [0.8 : tmax * 1.25]
set yrange [0.8 : tmax * 1.25]
set xlabel "OpenMP threads"
set ylabel "speedup over one thread"
set key inside left top
cmd = "x with lines ls 100 title 'ideal'"
do for [j = 1:nsw] {
    cmd = cmd.sprintf(", datafile using ((arow(0) && strcol('param_label') eq '%s') ? threads(0) : NaN):(%g / column('time_ms')) " . \
                      "smooth unique with linespoints lw 2 pt %d lc rgb '%s' title '%s (1 thread: %.0f ms)'", \
                      word(swept, j), T1[j], int(word("7 5 9 13", (j - 1) % 4 + 1)), \
                      word("#0072B2 #D55E00 #009E73 #CC79A7", (j - 1) % 4 + 1), esc(word(swept, j)), T1[j])
}
eval "plot ".cmd
