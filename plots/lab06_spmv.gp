# plots/lab06_spmv.gp -- Lab 06 (c, d) figure: CSR SpMV y = A x in GFLOP/s
# (2 flops per stored entry) on each test matrix (uniform, fem, powerlaw,
# longrows) at n = 2^20 rows: clustered bars for the scalar kernel (a
# thread per row, part cf), the vector kernel (a group of lanes per row, its
# own group size, part df) and cuSPARSE; a dashed bar across each cluster
# is the matrix's bandwidth roof, the GFLOP/s its bytes allow at the copy
# bandwidth: copy_gbps * gflops / gbps of its rows (GFLOP/s per GB/s is the
# flops per byte moved). Over it, where the data has alg_bytes, the
# kernels' own roof, the GFLOP/s at which their algorithm's bytes would
# move at the copy's speed (harness/parent/roofs.h: the CSR's bytes, the
# same for both kernels and cuSPARSE), in the vector kernel's colour: the
# bytes the GB/s count, so it lies on the bar, and the key says so; data
# measured before the roofs has none. Float on the left; double (cd, dd) in a second
# panel on the right when the data has double rows. Each bar is the mean of
# the rows of its (part, variant, matrix) at that n: cuSPARSE's rows of
# both parts of a type (scalar and vector runs each measure it) are
# averaged together, as are repeated runs.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab06.tsv'" plots/lab06_spmv.gp
# Variables (all but datafile optional): datafile, device, copy_gbps,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), impl (the GPU
# rows: "solution" or "student"; default solution when the data has any),
# nsel (the row count, default 2^20), spmv_double (-1, the default: the
# double panel when the data has double rows; 0 never; 1 always),
# show_values (1, the default: each bar's GFLOP/s above it).
# The data must hold, at n = nsel, rows of an SpMV part (cf, df; cd, dd)
# with param_label uniform, fem, powerlaw or longrows, at least one of them
# of impl (scalar or vector); a missing bar is marked "no rows", and a
# matrix's roof needs a row with gbps and gflops (any variant) and a copy
# bandwidth (the row's copy_gbps, else the data's).

me = "lab06_spmv.gp"
if (!exists("plotdir")) plotdir = "plots"
if (!exists("datafile")) datafile = plotdir."/data/lab06.tsv"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (!readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
# The parts with rows in the data, as " af bf ... " (the header found by
# name, comment lines skipped).
parts_in = " ".system(sprintf("awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == \"part\") c = i; h = 1; next } " . \
                              "c { print $c }' '%s' | sort -u | tr '\\n' ' '", datafile))
has_part(p) = strstrt(parts_in, " ".p." ") > 0
part = has_part("df") ? "df" : has_part("cf") ? "cf" : has_part("dd") ? "dd" : has_part("cd") ? "cd" : ""
if (strlen(part) == 0) {
    exit error sprintf("%s: no SpMV rows (parts cf, df, cd, dd) in '%s'", me, datafile)
}
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab06_spmv.".fmt
if (!exists("nsel")) nsel = 2**20
if (!exists("spmv_double")) spmv_double = -1
if (!exists("show_values")) show_values = 1
lg(x) = log(x) / log(2)
n_text = abs(lg(nsel) - floor(lg(nsel) + 0.5)) < 1e-9 ? sprintf("2^{%d}", int(lg(nsel) + 0.5)) : sprintf("%d", nsel)

# Whose GPU rows: solution, else student.
_sol = 0
_stu = 0
stats datafile using ((strcol("part") eq "cf" || strcol("part") eq "df" || strcol("part") eq "cd" || strcol("part") eq "dd") \
      ? (_sol = _sol + (strcol("variant") eq "solution"), _stu = _stu + (strcol("variant") eq "student"), 0) : 0) nooutput
if (!exists("impl")) impl = (_sol > 0 || _stu == 0) ? "solution" : "student"
who = impl eq "student" ? " (student)" : ""

# Slots: matrix m (1..4), type t (1 float, 2 double), bar b (1 scalar,
# 2 vector, 3 cuSPARSE). S/C: sum and count of GFLOP/s per bar; RS/RC: of
# the roof per (type, matrix); NZ/NC: entries per row per matrix.
mats = "uniform fem powerlaw longrows"
mslot(l) = l eq "uniform" ? 1 : l eq "fem" ? 2 : l eq "powerlaw" ? 3 : l eq "longrows" ? 4 : 0
tslot(p) = (p eq "cf" || p eq "df") ? 1 : (p eq "cd" || p eq "dd") ? 2 : 0
bslot(p, v) = v eq "cusparse" ? 3 : v eq impl ? (p[1:1] eq "c" ? 1 : 2) : 0
bidx(t, b, m) = ((t - 1) * 3 + b - 1) * 4 + m
ridx(t, m) = (t - 1) * 4 + m
array S[24]
array C[24]
array RS[8]
array RC[8]
array NZ[4]
array NC[4]
do for [i = 1:24] { S[i] = 0; C[i] = 0 }
do for [i = 1:8] { RS[i] = 0; RC[i] = 0 }
do for [i = 1:4] { NZ[i] = 0; NC[i] = 0 }
# A row of ours: the size, a known matrix, an SpMV part.
ours(z) = column("n") == nsel && mslot(strcol("param_label")) > 0 && tslot(strcol("part")) > 0
rowcopy(z) = column("copy_gbps") > 0 ? column("copy_gbps") : copy_gbps
stats datafile using ((ours(0) && bslot(strcol("part"), strcol("variant")) > 0 && column("gflops") == column("gflops")) \
      ? (_i = bidx(tslot(strcol("part")), bslot(strcol("part"), strcol("variant")), mslot(strcol("param_label"))), \
         S[_i] = S[_i] + column("gflops"), C[_i] = C[_i] + 1, 0) : 0) nooutput
stats datafile using ((ours(0) && column("gbps") > 0 && column("gflops") > 0 && rowcopy(0) > 0) \
      ? (_i = ridx(tslot(strcol("part")), mslot(strcol("param_label"))), \
         RS[_i] = RS[_i] + rowcopy(0) * column("gflops") / column("gbps"), RC[_i] = RC[_i] + 1, 0) : 0) nooutput
# nnz = flops / 2 = gflops * 1e9 * time_ms * 1e-3 / 2
stats datafile using ((ours(0) && column("gflops") > 0 && column("time_ms") > 0) \
      ? (_i = mslot(strcol("param_label")), \
         NZ[_i] = NZ[_i] + column("gflops") * column("time_ms") * 5e5 / column("n"), NC[_i] = NC[_i] + 1, 0) : 0) nooutput
# AS/AC: the GPU kernels' own roof per (type, kernel, matrix), from impl's
# rows (has_alg: data without alg_bytes has none).
array AS[16]
array AC[16]
do for [i = 1:16] { AS[i] = 0; AC[i] = 0 }
aidx(t, b, m) = ((t - 1) * 2 + b - 1) * 4 + m
if (has_gpu && has_alg) {
    stats datafile using ((ours(0) && strcol("variant") eq impl && column("alg_bytes") > 0 && column("gflops") > 0 && \
                           column("time_ms") > 0 && rowcopy(0) > 0) \
          ? (_i = aidx(tslot(strcol("part")), bslot(strcol("part"), impl), mslot(strcol("param_label"))), \
             AS[_i] = AS[_i] + column("gflops") * column("time_ms") * rowcopy(0) * 1e6 / column("alg_bytes"), \
             AC[_i] = AC[_i] + 1, 0) : 0) nooutput
}
algv(t, b, m) = AC[aidx(t, b, m)] > 0 ? AS[aidx(t, b, m)] / AC[aidx(t, b, m)] : NaN
bar(t, b, m) = C[bidx(t, b, m)] > 0 ? S[bidx(t, b, m)] / C[bidx(t, b, m)] : NaN
roofv(t, m) = RC[ridx(t, m)] > 0 ? RS[ridx(t, m)] / RC[ridx(t, m)] : NaN
nbar(t, b) = sum [j = 1:nm] (C[bidx(t, b, mslot(word(shown, j)))] > 0)
nroof(t) = sum [j = 1:nm] (RC[ridx(t, mslot(word(shown, j)))] > 0)
bars_of(t) = sum [m = 1:4] (C[bidx(t, 1, m)] + C[bidx(t, 2, m)] + C[bidx(t, 3, m)])

if (bars_of(1) + (spmv_double != 0 ? bars_of(2) : 0) == 0) {
    exit error sprintf("%s: no SpMV rows (parts cf, df%s; variant %s or cusparse) at n = %d " . \
                       "with param_label one of %s in '%s'", me, spmv_double != 0 ? ", cd, dd" : "", impl, nsel, mats, datafile)
}
if ((sum [m = 1:4] (C[bidx(1, 1, m)] + C[bidx(1, 2, m)] + (spmv_double != 0 ? C[bidx(2, 1, m)] + C[bidx(2, 2, m)] : 0))) == 0) {
    exit error sprintf("%s: no '%s' SpMV rows (scalar or vector kernel) at n = %d with param_label one of %s in '%s'", \
                       me, impl, nsel, mats, datafile)
}
if (spmv_double == 1 && bars_of(2) == 0) {
    exit error sprintf("%s: spmv_double = 1 but no double SpMV rows (parts cd, dd) at n = %d in '%s'", me, nsel, datafile)
}
# The panels: float when it has rows, double when it has rows and is asked for.
types = (bars_of(1) > 0 ? "1" : "").((spmv_double != 0 && bars_of(2) > 0) ? " 2" : "")
nt = words(types)

# The matrices drawn: those with a bar in a panel drawn, in the order of mats.
shown = ""
do for [m = 1:4] {
    _k = 0
    do for [t in types] { _k = _k + C[bidx(t + 0, 1, m)] + C[bidx(t + 0, 2, m)] + C[bidx(t + 0, 3, m)] }
    if (_k > 0) { shown = shown.(strlen(shown) ? " " : "").word(mats, m) }
}
nm = words(shown)
_miss = ""
do for [t in types] {
    do for [j = 1:nm] {
        do for [b = 1:3] {
            if (C[bidx(t + 0, b, mslot(word(shown, j)))] == 0) {
                _miss = _miss.sprintf(" %s/%s", b < 3 ? word("c d", b).word("f d", t + 0) : "cusparse-".word("float double", t + 0), word(shown, j))
            }
        }
    }
}
if (strlen(_miss)) { print sprintf("%s: no rows at n = %d for:%s (marked \"no rows\")", me, nsel, _miss) }

# One line per bar: x, GFLOP/s (0 when missing), 1 if it has rows, bar,
# type; one per roof: x, GFLOP/s (0 when unknown), 1 if known, type.
bw = 0.27
set print $bars
do for [t in types] {
    do for [j = 1:nm] {
        do for [b = 1:3] {
            _v = bar(t + 0, b, mslot(word(shown, j)))
            print sprintf("%g\t%g\t%d\t%d\t%s", j + (b - 2) * bw, _v == _v ? _v : 0, _v == _v, b, t)
        }
    }
}
unset print
set print $roofs
do for [t in types] {
    do for [j = 1:nm] {
        _v = roofv(t + 0, mslot(word(shown, j)))
        print sprintf("%g\t%g\t%d\t%s", j, _v == _v ? _v : 0, _v == _v, t)
    }
}
unset print
y_top = 0
do for [t in types] {
    do for [j = 1:nm] {
        _m = mslot(word(shown, j))
        do for [b = 1:3] { _v = bar(t + 0, b, _m); if (_v == _v && _v > y_top) { y_top = _v } }
        _v = roofv(t + 0, _m); if (_v == _v && _v > y_top) { y_top = _v }
    }
}
has_roof = 0
do for [t in types] { has_roof = has_roof || nroof(t + 0) > 0 }

# The kernels' own roofs: one line (the vector kernel's) where the type's
# two parts state the same formula; whether it is the bar's, within 1 %.
tpart(t, b) = word("c d", b).word("f d", t)
nalg = 0
alg_onbar = 1
alg_one = 1
set print $algroofs
do for [t in types] {
    _one = same_alg(tpart(t + 0, 1), tpart(t + 0, 2))
    alg_one = alg_one && _one
    do for [j = 1:nm] {
        _m = mslot(word(shown, j))
        do for [b = (_one ? 2 : 1):2] {
            _v = algv(t + 0, b, _m)
            if (_v == _v) {
                print sprintf("%g\t%g\t%d\t%s", j, _v, b, t)
                nalg = nalg + 1
                _r = roofv(t + 0, _m)
                alg_onbar = alg_onbar && _r == _r && abs(_v / _r - 1) < 0.01
            }
        }
    }
}
unset print
alg_key = alg_one ? sprintf("(c), (d) at their roof: %s%s", alg_words(tpart(word(types, 1) + 0, 2)), \
                            alg_onbar ? ", on the roof" : "") : \
                    "(c) and (d) at their own roof (colours as the bars)"

btitle(b) = b == 1 ? "scalar: a thread per row (c)".who : b == 2 ? "vector: a group of lanes per row (d)".who : "cuSPARSE SpMV"
bcolor(b) = word("#CC79A7 ".vcolor("solution", 1)." ".vcolor("cub", 1), b)
tname(t) = t == 1 ? "float (parts cf, df)" : "double (parts cd, dd)"
mtic(j) = sprintf("%s\n{/*0.8 %.2g nnz/row}", word(shown, j), \
                  NC[mslot(word(shown, j))] > 0 ? NZ[mslot(word(shown, j))] / NC[mslot(word(shown, j))] : NaN)

@open_output
set datafile nocolumnheaders    # the datablocks have none
set datafile separator "\t"
# Panels side by side above a strip that holds the key (a panel's own key
# would wrap to its width).
key_h = 0.13                    # the strip, a fraction of the height
top_h = 0.11                    # the figure's title
set multiplot title "Lab 06: CSR SpMV y = A x, per matrix\n". \
    subtitle(sprintf("n = %s rows, 2 flops per entry; %srepeated rows averaged", n_text, \
                     has_roof ? "roof: copy GB/s × flops per byte moved; " : "")) \
    font sprintf("%s,%d", font_name, font_size + 4)
set style fill solid 0.85 border rgb "#404040"
set boxwidth bw * 0.92
set xrange [0.45 : nm + 0.55]
set xtics () scale 0
do for [j = 1:nm] { set xtics add (mtic(j) j) }
unset mxtics
set grid noxtics nomxtics ytics mytics
set xlabel "matrix" offset 0, -0.6
unset logscale y
set format y "%g"
set mytics 2
set yrange [0 : y_top * 1.12]
set ylabel "GFLOP/s (2 nnz / time)" offset -0.5, 0
set lmargin 12
set rmargin 2
set tmargin 2.5
set bmargin 4.5
unset key
do for [k = 1:nt] {
    t = word(types, k) + 0
    set origin (k - 1.0) / nt, key_h
    set size 1.0 / nt, 1 - key_h - top_h
    set title tname(t) font sprintf("%s,%d", font_name, font_size + 1)
    # Only the layers that have points (an empty one draws a warning).
    cmd = ""
    do for [b = 1:3] {
        if (nbar(t, b) > 0) {
            cmd = cmd.sprintf(", $bars using (($5 == %d && $4 == %d && $3 > 0) ? $1 : NaN):2 with boxes lc rgb '%s'", \
                              t, b, bcolor(b))
        }
    }
    if (nbar(t, 1) + nbar(t, 2) + nbar(t, 3) < 3 * nm) {
        cmd = cmd.sprintf(", $bars using (($5 == %d && $3 == 0) ? $1 : NaN):(0):('no rows') with labels " . \
                          "rotate by 90 left offset 0, 0.5 font ',10' tc rgb '#808080'", t)
    }
    if (show_values) {
        cmd = cmd.sprintf(", $bars using (($5 == %d && $3 > 0) ? $1 : NaN):2:(sprintf('%%.0f', $2)) with labels " . \
                          "offset 0, 0.6 font ',10' tc rgb '#404040'", t)
    }
    if (nroof(t) > 0) {
        cmd = cmd.sprintf(", $roofs using (($4 == %d && $3 > 0) ? $1 - 0.47 : NaN):2:(0.94):(0) with vectors nohead ls 100", t)
        cmd = cmd.sprintf(", $roofs using (($4 == %d && $3 > 0) ? $1 - 0.47 : NaN):2:(sprintf('roof %%.0f', $2)) " . \
                          "with labels left offset 0, 0.6 font ',10' tc rgb '#202020'", t)
    }
    # (over the roof's bar, so that it shows on it)
    do for [b = 1:2] {
        _k = 0
        do for [j = 1:nm] { _k = _k + (algv(t, b, mslot(word(shown, j))) == algv(t, b, mslot(word(shown, j)))) }
        if (nalg > 0 && _k > 0 && (b == 2 || !alg_one)) {
            cmd = cmd.sprintf(", $algroofs using (($4 == %d && $3 == %d) ? $1 - 0.47 : NaN):2:(0.94):(0) " . \
                              "with vectors nohead lw 1.5 dt (6, 4) lc rgb '%s'", t, b, bcolor(b))
        }
    }
    eval "plot ".cmd[3:*]
}
# The key strip: nothing drawn but the key.
set origin 0, 0
set size 1, key_h
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
set margins 0, 0, 0, 0
set xrange [0:1]
set yrange [0:1]
set key inside center center horizontal maxcols 2 Left reverse noopaque nobox samplen 2 spacing 1.2 width 2
cmd = ""
do for [b = 1:3] {
    _n = 0
    do for [t in types] { _n = _n + nbar(t + 0, b) }
    if (_n > 0) { cmd = cmd.sprintf(", NaN with boxes lc rgb '%s' title '%s'", bcolor(b), btitle(b)) }
}
if (has_roof) { cmd = cmd.", NaN with lines ls 100 title 'roof: the GFLOP/s at copy bandwidth'" }
# (a fifth entry, longer: gnuplot's guess of its width would leave one
# column, too tall for the strip, without a narrower guess)
if (nalg > 0) {
    cmd = cmd.sprintf(", NaN with lines lw 1.5 dt (6, 4) lc rgb '%s' title alg_key", bcolor(2))
    set key width -6
}
eval "plot ".cmd[3:*]
unset multiplot
