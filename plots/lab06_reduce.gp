# plots/lab06_reduce.gp -- Lab 06 (a, b) figure: effective bandwidth (GB/s,
# 4 n bytes read for n floats) of the two reductions against n (log2 x):
# the shared-memory tree (part af), the warp-shuffle reduction (part bf) and
# CUB DeviceReduce::Sum (the vendor rows of part bf), with the measured
# device copy bandwidth as the dashed roof, and the parts' own roof, where
# their algorithm's bytes (n + 1 values: a hair above the bytes counted)
# would move at the copy's speed (harness/parent/roofs.h; data measured
# before the roofs has none). Rows repeated for one (part,
# variant, n), as when several runs are concatenated, are averaged (smooth
# unique). Without a GPU (copy_gbps NaN) the roof is left out.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab06.tsv'" plots/lab06_reduce.gp
# Variables (all but datafile optional): datafile, device, copy_gbps,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), prec ("f", the
# default: parts af, bf; "d": parts ad, bd, doubles), impl (the GPU rows:
# "solution" or "student"; default solution when the data has any),
# bw_logy (1 = log y axis, the default; 0 = linear from 0).
# The data must hold rows of parts a<prec> and b<prec> of impl; CUB's line
# is drawn when part b<prec> has rows of variant cub.

me = "lab06_reduce.gp"
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
if (!exists("prec")) prec = "f"
if (prec ne "f" && prec ne "d") {
    exit error sprintf("%s: prec is '%s': want \"f\" (float) or \"d\" (double)", me, prec)
}
p_tree = "a".prec
p_shfl = "b".prec
do for [p in p_tree." ".p_shfl] {
    if (!has_part(p)) {
        exit error sprintf("%s: no rows of part '%s' in '%s': 'lab06 sweep' writes them", me, p, datafile)
    }
}
part = p_shfl
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab06_reduce.".fmt
if (!exists("bw_logy")) bw_logy = 1

# The (part, variant) pairs of the data, as " af:solution bf:cub ... ".
pairs = " "
stats datafile using ((strstrt(pairs, " ".strcol("part").":".strcol("variant")." ") == 0) \
      ? (pairs = pairs.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
has_pv(p, v) = strstrt(pairs, " ".p.":".v." ") > 0
if (!exists("impl")) impl = (has_pv(p_tree, "solution") || has_pv(p_shfl, "solution") || \
                             !(has_pv(p_tree, "student") || has_pv(p_shfl, "student"))) ? "solution" : "student"
tname = prec eq "f" ? "float" : "double"
ptitle(p) = p eq p_tree ? sprintf("tree in shared memory (%s)", p) : sprintf("warp shuffles (%s)", p)
do for [p in p_tree." ".p_shfl] {
    if (!has_pv(p, impl)) {
        exit error sprintf("%s: no '%s' rows for part '%s' (%s, %s) in '%s': 'lab06 sweep' writes them", \
                           me, impl, p, ptitle(p), tname, datafile)
    }
}
who = impl eq "student" ? " (student)" : ""
has_cub = has_pv(p_shfl, "cub")
if (!has_cub) {
    print sprintf("%s: no cub rows for part '%s' in '%s': CUB's line left out", me, p_shfl, datafile)
}

# pickp(p, v, c): column c on the rows of part p, variant v; else NaN.
pickp(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN
lg(x) = log(x) / log(2)
# The lines: part, variant, key text. Each key text ends with the line's
# bandwidth at its largest n (the mean of that n's rows).
l_part = p_tree." ".p_shfl.(has_cub ? " ".p_shfl : "")
l_var  = impl." ".impl.(has_cub ? " cub" : "")
nl = words(l_part)
array L_TITLE[nl]
n_lo = NaN
n_hi = NaN
do for [k = 1:nl] {
    lp = word(l_part, k)
    lv = word(l_var, k)
    _m = 0
    stats datafile using ((strcol("part") eq lp && strcol("variant") eq lv && column("n") > _m) ? (_m = column("n"), 0) : 0) nooutput
    _s = 0
    _c = 0
    stats datafile using ((strcol("part") eq lp && strcol("variant") eq lv && column("n") == _m) \
                          ? (_s = _s + column("gbps"), _c = _c + 1, 0) : 0) nooutput
    _lo = _m
    stats datafile using ((strcol("part") eq lp && strcol("variant") eq lv && column("n") < _lo) ? (_lo = column("n"), 0) : 0) nooutput
    n_lo = (n_lo == n_lo && n_lo < _lo) ? n_lo : _lo
    n_hi = (n_hi == n_hi && n_hi > _m) ? n_hi : _m
    L_TITLE[k] = (lv eq "cub" ? "CUB DeviceReduce::Sum" : ptitle(lp).who) . \
                 sprintf(": %.0f GB/s at 2^{%d}", _s / _c, int(lg(_m) + 0.5))
}
lcolor(k) = word(l_var, k) eq "cub" ? vcolor("cub", 1) : word(l_part, k) eq p_tree ? "#CC79A7" : vcolor("solution", 1)
ldash(k)  = word(l_var, k) eq "cub" ? 1 : vdash(impl)
lpoint(k) = word(l_var, k) eq "cub" ? vpoint("cub", 1) : word(l_part, k) eq p_tree ? 11 : vpoint("solution", 1)

@LOGX_N
set xrange [n_lo / 1.5 : n_hi * 1.5]
set xtics 2**(2 * floor(lg(n_lo) / 2)), 4
if (bw_logy) { @LOGY_GBPS } else { @LINY_GBPS; set yrange [0:*] }
set title sprintf("Lab 06: reduction (sum) of n %ss, bandwidth\n", tname). \
    subtitle(sprintf("%d n bytes counted (each element read once); repeated rows averaged", prec eq "f" ? 4 : 8))
# The curves rise with n: on a log y axis the lower right corner stays
# empty, on a linear one the left half below the roof.
if (bw_logy) { set key inside right bottom opaque } else { set key inside left center opaque }

# The roof, as in lab01_bw.gp.
roof = ""
if (has_gpu) {
    set label 1 sprintf("device copy (roof) %.0f GB/s", copy_gbps) \
        at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}

# The parts' own roofs, as lab02_bw.gp draws them: one line when both
# state the same formula, drawn over the copy's (n + 1 values against the
# n counted: the same to a few parts in a billion at 2^28).
algroofs = !(has_gpu && has_alg) ? "" : same_alg(p_tree, p_shfl) ? p_shfl : p_tree." ".p_shfl
roof_title(p) = words(algroofs) == 1 ? sprintf("both at their roof: %s, on the copy's line", alg_words(p)) : \
                sprintf("(%s) at its roof: %s", p, alg_words(p))
roof_color(p) = p eq p_tree ? "#CC79A7" : vcolor("solution", 1)
# (a plot clause only when there is one: gnuplot warns of an empty iteration)
algplot = words(algroofs) == 0 ? "" : \
    ', for [p in algroofs] datafile using (pickp(p, impl, "n")):(at_roof_gbps(p, impl)) smooth unique ' . \
    'with lines lw 1.5 dt (6, 4) lc rgb roof_color(p) title roof_title(p)'

@open_output
plot for [k = 1:nl] datafile \
        using (pickp(word(l_part, k), word(l_var, k), "n")):(pickp(word(l_part, k), word(l_var, k), "gbps")) \
        smooth unique with linespoints lw 2 dt ldash(k) \
        lc rgb lcolor(k) pt lpoint(k) title (L_TITLE[k]) \
     @roof @algplot
