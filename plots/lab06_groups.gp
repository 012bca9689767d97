# plots/lab06_groups.gp -- Lab 06 (d) figure: the group-size sweep of the
# vector CSR SpMV. GFLOP/s (2 flops per stored entry) against the group
# size g = 2 .. 32 lanes per row (log2 x), one line per matrix family
# (fem, powerlaw, uniform, longrows: those with rows), from the rows whose
# param_label is "FAMILY gG" ("fem g8": family fem, g = 8); cuSPARSE on the
# same family as a dashed line of the same colour. With show_auto, the
# kernel's own choice (param_label "FAMILY", group 0 = SPMV_GROUP_AUTO) is
# an open point of the family's colour at the right, apart from the sweep.
# Repeated rows are averaged: the sweep's points (smooth unique), and
# cuSPARSE's rows of every label of the family, of both parts of the type
# (cf and df, or cd and dd), since its kernel knows no group size. Each
# family's matrix has its roof for the kernel, where the data has
# alg_bytes: the GFLOP/s at which its algorithm's bytes (the CSR's, the
# same at every group size) would move at the copy's speed
# (harness/parent/roofs.h), a dotted level line of the family's colour
# with its value in the key; data measured before the roofs has none.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab06.tsv'" plots/lab06_groups.gp
# Variables (all but datafile optional): datafile, device, copy_gbps,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), gpart ("df",
# the default, or "dd"), impl (the GPU rows: "solution" or "student";
# default solution when the part has any), nsel (the row count, default
# 2^20), show_auto (1, the default; 0 leaves the kernel's choice out),
# logy (0, the default: linear y from 0; 1: log y).
# The data must hold rows of part gpart, variant impl, at n = nsel, with a
# param_label "FAMILY gG" for at least one of the four families.

me = "lab06_groups.gp"
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
if (!exists("gpart")) gpart = "df"
if (gpart ne "df" && gpart ne "dd") {
    exit error sprintf("%s: gpart is '%s': want \"df\" (float) or \"dd\" (double)", me, gpart)
}
if (!has_part(gpart)) {
    exit error sprintf("%s: no rows of part '%s' in '%s'", me, gpart, datafile)
}
part = gpart
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab06_groups.".fmt
if (!exists("nsel")) nsel = 2**20
if (!exists("show_auto")) show_auto = 1
if (!exists("logy")) logy = 0
if (!exists("impl")) impl = has_variant("solution") || !has_variant("student") ? "solution" : "student"
who = impl eq "student" ? " (student)" : ""
lg(x) = log(x) / log(2)
n_text = abs(lg(nsel) - floor(lg(nsel) + 0.5)) < 1e-9 ? sprintf("2^{%d}", int(lg(nsel) + 0.5)) : sprintf("%d", nsel)
tname = gpart eq "df" ? "float" : "double"
spart = gpart eq "df" ? "cf" : "cd"     # the scalar part of the same type: cuSPARSE rows too

# param_label "fem g8": family "fem", group 8; "fem": group 0 (auto).
fams = "fem powerlaw uniform longrows"
fslot(l) = sum [k = 1:4] (word(l, 1) eq word(fams, k) ? k : 0)
gsize(l) = words(l) == 1 ? 0 : (words(l) == 2 && word(l, 2)[1:1] eq "g" ? word(l, 2)[2:*] + 0 : -1)
# A row of the sweep: part, variant and size, a family, a group.
at_g(v, f) = (strcol("part") eq gpart && strcol("variant") eq v && column("n") == nsel && \
              fslot(strcol("param_label")) == f && gsize(strcol("param_label")) > 0) ? column("gflops") : NaN
gx(v, f) = at_g(v, f) == at_g(v, f) ? gsize(strcol("param_label")) : NaN
# The kernel's choice (group 0), at x = x_auto.
x_auto = 64
at_a(f) = (show_auto && strcol("part") eq gpart && strcol("variant") eq impl && column("n") == nsel && \
           words(strcol("param_label")) == 1 && fslot(strcol("param_label")) == f) ? column("gflops") : NaN

# Per family: sweep rows (SW), kernel's-choice rows (AU), cuSPARSE (CS
# sum, CC count), entries per row (NZ sum, NC count).
array SW[4]
array AU[4]
array CS[4]
array CC[4]
array NZ[4]
array NC[4]
do for [k = 1:4] { SW[k] = 0; AU[k] = 0; CS[k] = 0; CC[k] = 0; NZ[k] = 0; NC[k] = 0 }
# the kernel's own roof per family (RS sum, RC count) from impl's rows of
# the part, every group size: one matrix, one roof
array RS[4]
array RC[4]
do for [k = 1:4] { RS[k] = 0; RC[k] = 0 }
if (has_gpu && has_alg) {
    stats datafile using ((strcol("part") eq gpart && strcol("variant") eq impl && column("n") == nsel && \
                           fslot(strcol("param_label")) > 0 && gsize(strcol("param_label")) >= 0 && \
                           column("alg_bytes") > 0 && column("gflops") > 0 && column("time_ms") > 0 && column("copy_gbps") > 0) ? \
          (_f = fslot(strcol("param_label")), \
           RS[_f] = RS[_f] + column("gflops") * column("time_ms") * column("copy_gbps") * 1e6 / column("alg_bytes"), \
           RC[_f] = RC[_f] + 1, 0) : 0) nooutput
}
stats datafile using ((column("n") == nsel && fslot(strcol("param_label")) > 0 && gsize(strcol("param_label")) >= 0 && \
                       (strcol("part") eq gpart || strcol("part") eq spart)) ? \
      (_f = fslot(strcol("param_label")), _g = gsize(strcol("param_label")), \
       SW[_f] = SW[_f] + (strcol("part") eq gpart && strcol("variant") eq impl && _g > 0 && column("gflops") == column("gflops")), \
       AU[_f] = AU[_f] + (strcol("part") eq gpart && strcol("variant") eq impl && _g == 0 && column("gflops") == column("gflops")), \
       (strcol("variant") eq "cusparse" && column("gflops") == column("gflops")) ? (CS[_f] = CS[_f] + column("gflops"), CC[_f] = CC[_f] + 1) : 0, \
       (column("gflops") > 0 && column("time_ms") > 0) ? \
           (NZ[_f] = NZ[_f] + column("gflops") * column("time_ms") * 5e5 / column("n"), NC[_f] = NC[_f] + 1) : 0, \
       0) : 0) nooutput

shown = ""
do for [k = 1:4] { if (SW[k] > 0) { shown = shown.(strlen(shown) ? " " : "").word(fams, k) } }
if (words(shown) == 0) {
    exit error sprintf("%s: no '%s' rows of part '%s' at n = %d with a param_label 'FAMILY gG' " . \
                       "(FAMILY one of %s, G 2 .. 32: the group-size sweep) in '%s'", \
                       me, impl, gpart, nsel, fams, datafile)
}
nf = words(shown)
# The families drawn with a cuSPARSE line (cs_shown), with the kernel's
# choice (au_shown); only layers with points are plotted (an empty one
# draws a warning).
cs_shown = ""
au_shown = ""
al_shown = ""
_nocs = ""
do for [k = 1:4] {
    if (SW[k] > 0 && RC[k] > 0) { al_shown = al_shown." ".word(fams, k) }
    if (SW[k] > 0 && CC[k] > 0) { cs_shown = cs_shown." ".word(fams, k) }
    if (SW[k] > 0 && CC[k] == 0) { _nocs = _nocs." ".word(fams, k) }
    if (SW[k] > 0 && AU[k] > 0 && show_auto) { au_shown = au_shown." ".word(fams, k) }
}
has_auto = words(au_shown) > 0
if (strlen(_nocs)) { print sprintf("%s: no cusparse rows at n = %d for:%s (no dashed line)", me, nsel, _nocs) }

# Colours per family (Okabe-Ito), points as lab 06's other figures.
fcolor(f) = word("#0072B2 #CC79A7 #E69F00 #009E73", fslot(f))
fpoint(f) = int(word("7 11 5 13", fslot(f)))
fopen(f)  = int(word("6 10 4 12", fslot(f)))
fmean(f) = NC[fslot(f)] > 0 ? NZ[fslot(f)] / NC[fslot(f)] : NaN
cs(f) = CC[fslot(f)] > 0 ? CS[fslot(f)] / CC[fslot(f)] : NaN
ftitle(f) = sprintf("%s, %.2g nnz/row%s", f, fmean(f), who)
ctitle(f) = sprintf("cuSPARSE, %s: %.0f", f, cs(f))
alg(f) = RC[fslot(f)] > 0 ? RS[fslot(f)] / RC[fslot(f)] : NaN
atitle(f) = sprintf("%s at its roof: %.0f", f, alg(f))

set logscale x 2
set xrange [1.6 : (has_auto ? x_auto * 1.3 : 40)]
set xtics ("2" 2, "4" 4, "8" 8, "16" 16, "32" 32)
if (has_auto) {
    set xtics add ("auto (g = 0)" x_auto)
    # a light rule between the sweep and the kernel's choice
    set arrow 1 from first sqrt(32 * x_auto), graph 0 to first sqrt(32 * x_auto), graph 1 nohead lw 1 lc rgb "#b0b0b0" dt 2 back
}
unset mxtics
set grid xtics ytics mytics
set xlabel "group size g (lanes per row)"
if (logy) {
    set logscale y 10
    set format y "%g"
    set mytics 10
} else {
    unset logscale y
    set format y "%g"
    set mytics 2
    set yrange [0:*]
}
set ylabel "GFLOP/s (2 nnz / time)"
set title sprintf("Lab 06 (d): vector CSR SpMV against the group size (%s)\n", tname). \
    subtitle(sprintf("part %s, n = %s rows; dashed: cuSPARSE on the same matrix; mean of repeated rows", gpart, n_text))
# The key below the plot: a row per family, its sweep, then its cuSPARSE
# (when every family drawn has cuSPARSE rows; else they shift up).
set key outside center bottom horizontal maxcols 2 maxrows nf spacing 1.2 width 1.5
# (a third column for the roofs, where they are drawn, their formula in the
# key's title: with it in each entry, gnuplot's guess of their width would
# leave room for two columns)
if (words(al_shown) > 0) {
    set key maxcols 3 title sprintf("{/*0.85 dotted: (%s) at its roof, %s at the copy's speed}", gpart, alg_words(gpart))
}
set bmargin 4.5 + 1.25 * nf

# cuSPARSE: a constant per family, drawn across the sweep only.
x_end = has_auto ? sqrt(32 * x_auto) : 40
cline(f, x) = x <= x_end ? cs(f) : NaN
aline(f, x) = x <= x_end ? alg(f) : NaN
set samples 200

@open_output
# Empty layers are left out (an empty "for [f in ...]" is an error).
cs_plot = words(cs_shown) == 0 ? "" : \
    ", for [f in cs_shown] cline(f, x) with lines lw 2 dt (8, 5) lc rgb fcolor(f) title ctitle(f)"
al_plot = words(al_shown) == 0 ? "" : \
    ", for [f in al_shown] aline(f, x) with lines lw 2 dt (2, 4) lc rgb fcolor(f) title atitle(f)"
au_plot = !has_auto ? "" : \
    ", for [f in au_shown] datafile using (at_a(fslot(f)) == at_a(fslot(f)) ? x_auto : NaN):(at_a(fslot(f))) " . \
    "smooth unique with points pt fopen(f) ps 1.8 lw 2 lc rgb fcolor(f) notitle"
plot for [f in shown] datafile using (gx(impl, fslot(f))):(at_g(impl, fslot(f))) smooth unique \
        with linespoints lw 2.2 dt vdash(impl) lc rgb fcolor(f) pt fpoint(f) ps 1.4 title ftitle(f) \
     @cs_plot @al_plot @au_plot
