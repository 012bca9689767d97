# plots/lab03_scan.gp -- Lab 03 (bank conflicts) figure: lab 02's shared-
# memory Blelloch scan without padding (part c0) and with conflict-free
# padding (part c). Two stacked panels over the same n axis (log2):
#   top     median time per call against n, log-log, and each part's own
#           roof, the least time its algorithm's bytes take at the copy's
#           speed (harness/parent/roofs.h; both parts 3n words, one line;
#           data measured before the roofs has none);
#   bottom  the speedup from padding, time(c0) / time(c), for each n that
#           both parts have (above 1: padding is faster).
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab03.tsv'" plots/lab03_scan.gp
# Variables (all but datafile optional): datafile, device, fmt
# (png|svg|pdf), outfile, plotdir (folder of style.gp), impl (the GPU rows:
# "solution" or "student"; default solution when the data has any).
# The parts are fixed (c0, c): a `part` given is ignored.

me = "lab03_scan.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
part = "c"                      # style.gp stops with a message without rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab03_scan.".fmt

# pick() for an explicit part p (pick() itself uses the global `part`).
pickp(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN
# The (part, variant) pairs of the data, as " c0:solution c:solution ... ".
pairs = " "
stats datafile using ((strstrt(pairs, " ".strcol("part").":".strcol("variant")." ") == 0) \
      ? (pairs = pairs.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
has_pv(p, v) = strstrt(pairs, " ".p.":".v." ") > 0
if (!exists("impl")) impl = (strstrt(pairs, ":solution ") > 0 || strstrt(pairs, ":student ") == 0) ? "solution" : "student"
ptitle(p) = p eq "c0" ? "Blelloch, no padding" : "Blelloch, conflict-free padding"
do for [p in "c0 c"] {
    if (!has_pv(p, impl)) {
        exit error sprintf("%s: no '%s' rows for part '%s' (%s) in '%s'", me, impl, p, ptitle(p), datafile)
    }
}
who = impl eq "student" ? " (student)" : ""
# Colours per part (every row is variant solution): Okabe-Ito.
pcolor(p) = p eq "c0" ? "#D55E00" : "#0072B2"
ppoint(p) = p eq "c0" ? 5 : 7

# time(c0) by n, in arrays, to divide by time(c) at the same n.
stats datafile using (pickp("c0", impl, "n")) nooutput
m0 = STATS_records
array N0[m0]
array T0[m0]
_i = 0
stats datafile using ((strcol("part") eq "c0" && strcol("variant") eq impl) \
      ? (_i = _i + 1, N0[_i] = column("n"), T0[_i] = column("time_ms"), 0) : 0) nooutput
_t0(n, i) = i > m0 ? NaN : (N0[i] == n ? T0[i] : _t0(n, i + 1))
speedup(n, t) = (n == n && t > 0) ? _t0(n, 1) / t : NaN

# The shared n axis: powers of two around every row of both parts.
pickc(c) = ((strcol("part") eq "c0" || strcol("part") eq "c") && strcol("variant") eq impl) ? column(c) : NaN
stats datafile using (pickc("n")) nooutput
x_lo = 2**floor(log(STATS_min) / log(2))
x_hi = 2**ceil(log(STATS_max) / log(2))
if (x_hi <= x_lo) x_hi = 2 * x_lo
# The best speedup, for a label.
stats datafile using (pickp("c", impl, "n")):(speedup(column("n"), pickp("c", impl, "time_ms"))) nooutput
best_n = STATS_pos_max_y
best_s = STATS_max_y
# A tic step for the speedup axis, about four steps over its span (1 included).
sp_lo = STATS_min_y < 1 ? STATS_min_y : 1
sp_hi = STATS_max_y > 1 ? STATS_max_y : 1
_m = (sp_hi - sp_lo) / 4 > 0 ? (sp_hi - sp_lo) / 4 : 0.01
_e = 10**floor(log10(_m))
sp_step = _m / _e <= 1 ? _e : _m / _e <= 2 ? 2 * _e : _m / _e <= 5 ? 5 * _e : 10 * _e

@open_output
set multiplot title "Lab 03: the scan without and with padding\n". \
    subtitle("exclusive scan, shared-memory Blelloch of lab 02") \
    font sprintf("%s,%d", font_name, font_size + 4)
set lmargin at screen 0.11
set rmargin at screen 0.95

# Top: time.
set tmargin at screen 0.85
set bmargin at screen 0.44
@LOGX_N
set xrange [x_lo : x_hi]
set format x ""
set xlabel ""
@LOGY_MS
set key inside left top opaque
# The parts' own roofs, as lab02_bw.gp draws them, in time: one line when
# both state the same formula.
algroofs = !(has_gpu && has_alg) ? "" : same_alg("c0", "c") ? "c" : "c0 c"
roof_title(p) = words(algroofs) == 1 ? sprintf("both at their roof: %s", alg_words(p)) : \
                sprintf("%s at its roof: %s", p eq "c0" ? "no padding" : "padding", alg_words(p))
# (a plot clause only when there is one: gnuplot warns of an empty iteration)
algplot = words(algroofs) == 0 ? "" : \
    ', for [p in algroofs] datafile using (pickp(p, impl, "n")):(at_roof_ms(p, impl)) ' . \
    'with lines lw 1.5 dt (6, 4) lc rgb pcolor(p) title roof_title(p)'
# (the times' own range: far below the launches' few microseconds at small
# n, the roof leaves the plot instead of widening it)
if (words(algroofs) > 0) {
    stats datafile using (pickc("time_ms")) nooutput
    set yrange [10**floor(log10(STATS_min)) : *]
}
plot for [p in "c0 c"] datafile \
        using (pickp(p, impl, "n")):(pickp(p, impl, "time_ms")) \
        with linespoints lw 2 dt vdash(impl) lc rgb pcolor(p) pt ppoint(p) \
        title ptitle(p).who @algplot

# Bottom: speedup from padding.
set tmargin at screen 0.40
set bmargin at screen 0.10
set format x "2^{%L}"
set xlabel "n (elements)"
unset logscale y
set yrange [sp_lo - 0.6 * sp_step : sp_hi + 1.4 * sp_step]    # room for the labels
set ytics sp_step format (sp_step < 0.1 ? "%.2f" : "%.1f")
set mytics 2
set ylabel "speedup from padding"
unset key
set label 2 sprintf("best %.2f x at n = 2^{%d}", best_s, int(log(best_n) / log(2) + 0.5)) \
    at graph 0.98, graph 0.90 right front tc rgb pcolor("c")
set label 3 "time(no padding) / time(padded): above 1, padding is faster" \
    at graph 0.02, graph 0.90 left front tc rgb "#404040"
plot 1 with lines ls 100 lw 1.2 notitle, \
     datafile using (pickp("c", impl, "n")):(speedup(column("n"), pickp("c", impl, "time_ms"))) \
        with linespoints lw 2 lc rgb pcolor("c") pt ppoint("c") notitle
unset multiplot
