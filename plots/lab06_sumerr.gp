# plots/lab06_sumerr.gp -- Lab 06 (e) figure: the summation-error experiment.
# Relative error |sum - S| / S of n floats uniform in [0, 1) summed in float
# serially, pairwise and as a GPU's tree (blocks of 1024), against n,
# log-log: each seed a faint point, the mean over seeds a line; the
# random-walk estimates sqrt(n) u and sqrt(log2 n) u dashed; each order's
# first-order worst-case bound K u dotted (K: the most additions above one
# element: n - 1, log2 n + 4, 10 per level of blocks); u = 2^-24.
# The rows come from `build/labs/lab06 sumerr --out FILE`, which needs no
# GPU: plots/data/lab06_sumerr.tsv, found beside datafile (lab06.tsv, which
# this figure does not read). Normally run by plots/render.sh; by hand from
# the repo root:
#   gnuplot -e "datafile='plots/data/lab06.tsv'" plots/lab06_sumerr.gp
# Variables (all optional): datafile, errfile (the rows; default beside
# datafile), fmt (png|svg|pdf), outfile, plotdir (folder of style.gp). The
# device named is the CPU of errfile's header, whatever render.sh passes:
# the rows are the same on any IEEE machine.

me = "lab06_sumerr.gp"
if (!exists("plotdir")) plotdir = "plots"
if (!exists("datafile")) datafile = plotdir."/data/lab06.tsv"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
_slash(s, i, at) = i > strlen(s) ? at : _slash(s, i + 1, s[i:i] eq "/" ? i : at)
if (!exists("errfile")) errfile = substr(datafile, 1, _slash(datafile, 1, 0))."lab06_sumerr.tsv"
if (!readable(errfile)) {
    exit error sprintf("%s: cannot read '%s': build/labs/lab06 sumerr --out FILE writes it", me, errfile)
}

# style.gp reads a lab TSV's part and variant columns, which these rows
# (one experiment, CPU only) do not have: it gets a one-row stand-in, and
# the device comes from errfile's header.
labfile = datafile
set print $style_rows
print "part\tvariant"
print "e\tsumerr"
unset print
datafile = '$style_rows'
device = system("sed -n 's/^# device: //p' '".errfile."' | head -n 1")
copy_gbps = NaN
part = "e"
load plotdir."/style.gp"
datafile = labfile
if (strlen(outfile) == 0) outfile = "lab06_sumerr.".fmt

u = 2.0**-24
lg(n) = log(n) / log(2)
# Per order: colour and point (Okabe-Ito; serial is style.gp's cpu_serial).
orders = "serial pairwise tree"
ocolor(o) = o eq "serial" ? "#E69F00" : o eq "pairwise" ? "#009E73" : "#0072B2"
ofaint(o) = o eq "serial" ? "#B0E69F00" : o eq "pairwise" ? "#B0009E73" : "#B00072B2"
opoint(o) = o eq "serial" ? 5 : o eq "pairwise" ? 9 : 7
otitle(o) = o eq "serial" ? "serial (one accumulator)" : o eq "pairwise" ? "pairwise (halves)" : \
            "tree (blocks of 1024, as a GPU)"
# log axes cannot show an exact sum (error 0): such a seed has no point
pos(v) = v > 0 ? v : NaN

stats errfile using "n" nooutput
rows = STATS_records
n_lo = STATS_min
n_hi = STATS_max
stats errfile using "seed" nooutput
seeds = int(STATS_max)
if (rows == 0) { exit error sprintf("%s: no rows in '%s'", me, errfile) }
# The largest n and its mean serial error, for the label of the stall.
stats errfile using (column("n") == n_hi ? column("err_serial") : NaN) nooutput
stall = STATS_mean

@LOGX_N
set xrange [n_lo / 1.5 : n_hi * 1.5]
set xtics 2**(2 * ceil(lg(n_lo) / 2)), 4
set logscale y 10
set format y "10^{%L}"
set ytics 100
set mytics 10
set yrange [1e-10 : 30]
set ylabel "relative error |sum - S| / S"
set key inside left top vertical Left reverse opaque box lw 1 lc rgb "#a0a0a0" samplen 3 spacing 1.15 width 1
set title sprintf("Lab 06 (e): the error of a float sum, by order\n%s", \
    sprintf("{/*0.72 %s  |  n floats uniform in [0, 1), seeds 1..%d (points), their mean (lines)  |  same bits on any IEEE machine}", \
            esc(device), seeds))

# u: the error of storing S itself in a float is at most u.
set arrow 1 from graph 0, first u to graph 1, first u nohead lw 1 lc rgb "#808080" dt (2, 4) back
set label 1 "u = 2^{-24} ≈ 6.0·10^{-8}" at graph 0.99, first u offset 0, 0.7 right tc rgb "#606060" front
if (stall > 0.01) {
    set label 2 sprintf("serial sum stuck at 2^{24}:\nadding x < 1 changes nothing\n(%.0f%% of S lost)", 100 * stall) \
        at first n_hi, first stall offset -3, -2.6 right tc rgb ocolor("serial") front
}

@open_output
plot \
    for [o in orders] errfile using "n":(pos(column("err_".o))) \
        with points pt 7 ps 0.55 lc rgb ofaint(o) notitle, \
    for [o in orders] errfile using "n":(column("err_".o)) smooth unique \
        with linespoints lw 2.5 pt opoint(o) ps 1.1 lc rgb ocolor(o) title otitle(o), \
    sqrt(x) * u with lines lw 2 dt (8, 5) lc rgb ocolor("serial") title "√n · u (random walk, serial)", \
    (x > 1 ? sqrt(lg(x)) * u : NaN) with lines lw 2 dt (8, 5) lc rgb "#56B4E9" title "√(log_2 n) · u (random walk, tree)", \
    errfile using "n":"bound_serial" smooth unique with lines lw 2 dt (2, 3) lc rgb ocolor("serial") \
        title "bound (n - 1) · u, serial", \
    errfile using "n":"bound_pairwise" smooth unique with lines lw 2 dt (2, 3) lc rgb ocolor("pairwise") \
        title "bound (log_2 n + 4) · u, pairwise", \
    errfile using "n":"bound_tree" smooth unique with fsteps lw 2 dt (2, 3) lc rgb ocolor("tree") \
        title "bound 10 · levels · u, tree"
