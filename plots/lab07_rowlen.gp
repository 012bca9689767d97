# plots/lab07_rowlen.gp -- Lab 07: time per entry and iteration against the
# matrix's mean row length, one point per matrix of `lab07 table` (the
# seed's matrices as synthetic stand-ins, and any real ones timed with
# --matrix), a line per kernel: part b with 1, 2 and 32 working lanes per
# warp (a thread per row), part c (a warp per row), part d (the flat
# segmented scan), CUB's scan-by-key, and part a (OpenMP, the host's
# threads). ns per entry and iteration is 2 / gflops (the rows count 2
# flops per entry and iteration), so the gather of x[k], once per call, is
# spread over the iterations. The x axis shows why part b and part c rank
# the way they do: short rows favour a thread per row, long ones a warp.
# The GPU parts' own roofs are drawn too, where the data has alg_bytes: the
# ns per entry and iteration their algorithm's bytes take at the copy's
# speed on each matrix, (2 / gflops) times the roof's time over the row's
# (harness/parent/roofs.h: b and c state one formula, one line; d's heads
# cost at most a bit an entry, so it is lower for short rows; data
# measured before the roofs has none), their formulas in the key's title.
# Part a, OpenMP on the host, states none: the copy is the GPU's.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab07.tsv'" plots/lab07_rowlen.gp
# Variables: datafile, device, copy_gbps, fmt, outfile, plotdir, impl
# ("solution" or "student"; default: solution when the data has it),
# minnz (the fewest entries a matrix drawn has, default 10^6: smaller ones,
# jonheart's stand-in and the small real matrices, take a few kernel
# launches' time whatever their shape, which says nothing about rows).
me = "lab07_rowlen.gp"
if (!exists("plotdir")) plotdir = "plots"
if (!exists("datafile")) datafile = plotdir."/data/lab07.tsv"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab07_rowlen.".fmt
_sol = 0
stats datafile using (_sol = _sol + (strcol("variant") eq "solution"), 0) nooutput
if (!exists("impl")) impl = _sol > 0 ? "solution" : "student"

if (!exists("minnz")) minnz = 1e6
family(l) = l eq "uniform" || l eq "powerlaw"
# the table's matrix rows (not the families' rows) of minnz entries or more
mrow(p, v) = (!family(strcol("param_label")) && strcol("part") eq p && strcol("variant") eq v && column("gflops") > 0 \
              && column("n") >= minnz)
nsper(p, v) = mrow(p, v) ? 2 / column("gflops") : NaN
series = "b|".impl." 1 lane;b|".impl." 2 lanes;b|".impl." 32 lanes;c|".impl.";d|".impl.";d|cub"
titles = "b: 1 lane a warp;b: 2 lanes a warp;b: 32 lanes (a thread per row);c: a warp per row;d: flat segmented scan;CUB scan-by-key"
colors = "#E69F00;#D55E00;#CC79A7;#56B4E9;#0072B2;#009E73"
field(s, k) = system(sprintf("printf '%%s' '%s' | cut -d';' -f%d", s, k))
spart(k) = system(sprintf("printf '%%s' '%s' | cut -d';' -f%d | cut -d'|' -f1", series, k))
svar(k) = system(sprintf("printf '%%s' '%s' | cut -d';' -f%d | cut -d'|' -f2", series, k))
array NS[6]
do for [k = 1:6] {
    _p = spart(k); _v = svar(k); _c = 0
    stats datafile using (_c = _c + mrow(_p, _v), 0) nooutput
    NS[k] = _c
}
if (NS[5] == 0) {
    exit error sprintf("%s: no '%s' rows of part d for the table's matrices in '%s' (run lab07 table --out)", me, impl, datafile)
}
# part a: the rows at the most threads the table used (its matrix rows)
_amax = 0
stats datafile using ((!family(strcol("param_label")) && strcol("part") eq "a" && \
                       strstrt(strcol("variant"), impl." ") == 1) ? (_t = word(strcol("variant"), 2) + 0, \
                       _amax = _t > _amax ? _t : _amax, 0) : 0) nooutput
avar = sprintf("%s %d threads", impl, _amax)

@open_output
set title "Lab 07: time per entry and iteration against row length\n". \
    sprintf("{/*0.75 %s; the seed's matrices of %.3g entries or more (synthetic stand-ins), its iterations}", esc(device), minnz)
set logscale x 10
set logscale y 10
set format x "%g"
set format y "%g"
set xlabel "mean entries per row"
set ylabel "ns per entry and iteration (2 / GFLOP/s)"
set mxtics 10
set mytics 10
cmd = ""
do for [k = 1:6] {
    if (NS[k] > 0) {
        cmd = cmd.sprintf(", datafile using (mrow('%s', '%s') ? column('param') : NaN):(nsper('%s', '%s')) smooth unique " . \
                          "with linespoints lw 1.2 pt %d lc rgb '%s' title '%s'", spart(k), svar(k), spart(k), svar(k), \
                          int(word("5 9 4 6 7 13", k)), field(colors, k), field(titles, k))
    }
}
if (_amax > 0) {
    cmd = cmd.sprintf(", datafile using (mrow('a', avar) ? column('param') : NaN):(nsper('a', avar)) smooth unique " . \
                      "with linespoints lw 1.5 dt 2 pt 1 lc rgb '#7F7F7F' title 'a: OpenMP, %d threads'", _amax)
}
# The GPU parts' own roofs, as lab07_families.gp draws them: b's and c's
# one line where they state one formula (drawn from c's rows), d's, in the
# part's colour; the formulas in the key's title, a line at ", then".
if (has_gpu && has_alg) {
    _rk = same_alg("b", "c") ? "4 5" : "3 4 5"
    _keyt = ""
    do for [k in _rk] {
        _k = k + 0
        _p = spart(_k); _v = svar(_k)
        _both = _k == 4 && same_alg("b", "c")
        _who = _both ? "b, c" : _p
        _w = esc(alg_plain(_p))
        _c = 0
        stats datafile using (_c = _c + (mrow(_p, _v) && column("alg_bytes") > 0), 0) nooutput
        if (_c > 0) {
            if (strlen(_w) > 0) {
                _at = strstrt(_w, ", then ")
                _keyt = _keyt.(strlen(_keyt) ? "\n" : "").sprintf("{/*0.8 %s: %s}", _who, _at > 0 ? _w[1:_at] : _w). \
                        (_at > 0 ? sprintf("\n{/*0.8     %s}", _w[_at + 2:*]) : "")
            }
            cmd = cmd.sprintf(", datafile using (mrow('%s', '%s') && column('alg_bytes') > 0 ? column('param') : NaN):" . \
                              "(nsper('%s', '%s') * column('alg_bytes') / (column('copy_gbps') * 1e6 * column('time_ms'))) " . \
                              "smooth unique with lines lw 1.5 dt (6, 4) lc rgb '%s' title '%s at %s roof'", \
                              _p, _v, _p, _v, field(colors, _k), _who, _both ? "their" : "its")
        }
    }
    if (strlen(_keyt) > 0) { set key title _keyt left }
}
# the matrices' names above part d's points
cmd = cmd.", datafile using (mrow('d', impl.'') ? column('param') : NaN):(nsper('d', impl.'')):(esc(strcol('param_label'))) " . \
      "with labels rotate by 60 left offset 0, 0.8 font ',9' tc rgb '#404040' notitle"
eval "plot ".cmd[3:*]
