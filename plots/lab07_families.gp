# plots/lab07_families.gp -- Lab 07: uniform against power-law rows, time
# per entry against n for part b (a thread per row, 32 lanes), part c (a
# warp per row), part d (the flat segmented scan) and CUB's scan-by-key,
# one iteration a call (the gather included). Solid lines: uniform rows
# (8 entries a row on average); dashed: power-law rows (about 3 a row, a
# few of thousands). Part d's time should not depend on the rows; part c
# wastes most of a warp on rows of one to three entries, and its longest
# rows serialise.
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
eval "plot ".cmd[3:*]
