# plots/lab07_families.gp -- Lab 07: uniform against power-law rows, time
# per entry against n for part b (a thread per row, 32 lanes), part c (a
# warp per row), part d (the flat segmented scan) and CUB's scan-by-key,
# one iteration a call (the gather included). Solid lines: uniform rows
# (8 entries a row on average); dashed: power-law rows (about 3 a row, a
# few of thousands). Part d's time should not depend on the rows; part c
# wastes most of a warp on rows of one to three entries, and its longest
# rows serialise. Each part's own roof is drawn too, where the data has
# alg_bytes: the ns per entry its algorithm's bytes take at the copy's
# speed, on each family's rows (harness/parent/roofs.h; b and c state one
# formula, one line; data measured before the roofs has none), the
# formulas in the key's title.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab07.tsv'" plots/lab07_families.gp
# Variables: datafile, device, copy_gbps, fmt, outfile, plotdir, impl.
me = "lab07_families.gp"
if (!exists("plotdir")) plotdir = "plots"
if (!exists("datafile")) datafile = plotdir."/data/lab07.tsv"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab07_families.".fmt
_sol = 0
stats datafile using (_sol = _sol + (strcol("variant") eq "solution"), 0) nooutput
if (!exists("impl")) impl = _sol > 0 ? "solution" : "student"

frow(p, v, f) = strcol("param_label") eq f && strcol("part") eq p && strcol("variant") eq v && column("time_ms") > 0
_c = 0
stats datafile using (_c = _c + frow("d", impl, "powerlaw") + frow("d", impl, "uniform"), 0) nooutput
if (_c == 0) {
    exit error sprintf("%s: no '%s' rows of part d on the uniform or powerlaw family in '%s' (run lab07 table --out)", me, impl, datafile)
}
kp = "b c d d"
kv(k) = k == 1 ? impl." 32 lanes" : k == 4 ? "cub" : impl
kt(k) = word("b:_a_thread_per_row c:_a_warp_per_row d:_flat_segmented_scan CUB_scan-by-key", k)
kc(k) = word("#CC79A7 #56B4E9 #0072B2 #009E73", k)
kpt(k) = int(word("4 6 7 13", k))

@open_output
set title "Lab 07: uniform against power-law rows\n". \
    sprintf("{/*0.75 %s; one iteration a call; solid: uniform rows, dashed: power-law rows}", esc(device))
@LOGX_N
set key samplen 5
set xlabel "n (entries)"
set logscale y 10
set format y "%g"
set mytics 10
set ylabel "ns per entry (time / n)"
cmd = ""
do for [k = 1:4] {
    do for [f = 1:2] {
        _fam = word("uniform powerlaw", f)
        _p = word(kp, k); _v = kv(k)
        _c = 0
        stats datafile using (_c = _c + frow(_p, _v, _fam), 0) nooutput
        if (_c > 0) {
            cmd = cmd.sprintf(", datafile using (frow('%s', '%s', '%s') ? column('n') : NaN):(column('time_ms') * 1e6 / column('n')) " . \
                              "smooth unique with linespoints lw 2 dt %d pt %d lc rgb '%s' title '%s, %s'", _p, _v, _fam, \
                              f == 1 ? 1 : 2, kpt(k), kc(k), system(sprintf("printf '%%s' '%s' | tr _ ' '", kt(k))), _fam)
        }
    }
}
# The parts' own roofs, as lab04_time.gp draws them, in ns per entry: b's
# and c's one line where they state one formula (drawn from c's rows),
# d's, in the part's colour, on each family's rows. The two families' lie
# a few per cent apart, b's and c's on d's: a key entry for each part, its
# formula in the key's title, a line at ", then" (a key beside the plot
# is as wide as its widest line).
if (has_gpu && has_alg) {
    _rk = same_alg("b", "c") ? "2 3" : "1 2 3"
    _keyt = ""
    do for [k in _rk] {
        _k = k + 0
        _p = word(kp, _k); _v = kv(_k)
        _both = _k == 2 && same_alg("b", "c")
        _who = _both ? "b, c" : _p
        _w = esc(alg_plain(_p))
        if (strlen(_w) > 0) {
            _at = strstrt(_w, ", then ")
            _keyt = _keyt.(strlen(_keyt) ? "\n" : "").sprintf("{/*0.8 %s: %s}", _who, _at > 0 ? _w[1:_at] : _w). \
                    (_at > 0 ? sprintf("\n{/*0.8     %s}", _w[_at + 2:*]) : "")
        }
        _titled = 0
        do for [f = 1:2] {
            _fam = word("uniform powerlaw", f)
            _c = 0
            stats datafile using (_c = _c + (frow(_p, _v, _fam) && column("alg_bytes") > 0), 0) nooutput
            if (_c > 0) {
                cmd = cmd.sprintf(", datafile using (frow('%s', '%s', '%s') ? column('n') : NaN):" . \
                                  "(column('alg_bytes') / (column('copy_gbps') * column('n'))) smooth unique " . \
                                  "with lines lw 1.5 dt (6, 4) lc rgb '%s' %s", _p, _v, _fam, kc(_k), \
                                  _titled ? "notitle" : sprintf("title '%s at %s roof'", _who, _both ? "their" : "its"))
                _titled = 1
            }
        }
    }
    if (strlen(_keyt) > 0) { set key title _keyt left }
}
eval "plot ".cmd[3:*]
