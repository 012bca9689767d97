# plots/lab02_bw.gp -- Lab 02 (Blelloch scan) figure: effective bandwidth
# (GB/s, 8 bytes counted per element) against n, log-log, for the Blelloch
# scans in global memory (part a) and in shared memory (part b), CUB and the
# CPU OpenMP scan (part b rows), with the measured device copy bandwidth as
# the dashed roof (left out without a GPU), and each part's own roof, where
# its algorithm's bytes would move at the copy's speed (harness/parent/roofs.h:
# 3n words for part b, 2/3 of the copy in these GB/s; data measured before
# the roofs has none).
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab02.tsv'" plots/lab02_bw.gp
# Variables (all but datafile optional): datafile, device, copy_gbps,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), impl (the GPU
# rows: "solution" or "student"; default solution when the data has any),
# bw_logy (1 = log y axis, the default; 0 = linear).
# The parts are fixed (a and b): a `part` given is ignored.

me = "lab02_bw.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
part = "b"                      # style.gp checks that this part has rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab02_bw.".fmt
if (!exists("bw_logy")) bw_logy = 1

# pick() for an explicit part p (pick() itself uses the global `part`).
pickp(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN

# The (part, variant) pairs of the data, as " a:solution b:cub ... ".
pairs = " "
stats datafile using ((strstrt(pairs, " ".strcol("part").":".strcol("variant")." ") == 0) \
      ? (pairs = pairs.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
has_pv(p, v) = strstrt(pairs, " ".p.":".v." ") > 0
has_part(p)  = strstrt(pairs, " ".p.":") > 0
if (!has_part("a")) {
    exit error sprintf("%s: no rows for part 'a' (Blelloch, global memory) in '%s'", me, datafile)
}
if (!exists("impl")) impl = (strstrt(pairs, ":solution ") > 0 || strstrt(pairs, ":student ") == 0) ? "solution" : "student"

# The lines, by key: part, variant, key text, colour, point type (the same
# as in lab02_time.gp; CUB and CPU keep style.gp's colours).
lines = "ag bs cub omp"
lpart(k) = k eq "ag" ? "a" : "b"
lvar(k)  = (k eq "ag" || k eq "bs") ? impl : k eq "cub" ? "cub" : "cpu_omp"
_who(v)  = v eq "student" ? " (student)" : ""
ltitle(k) = k eq "ag" ? "Blelloch, global memory"._who(lvar(k)) : \
            k eq "bs" ? "Blelloch, shared memory"._who(lvar(k)) : \
            k eq "cub" ? "CUB DeviceScan" : vlabel(lvar(k))
lcolor(k) = k eq "ag" ? "#56B4E9" : k eq "bs" ? "#0072B2" : vcolor(lvar(k), 1)
lpoint(k) = k eq "ag" ? 6 : k eq "bs" ? 7 : vpoint(lvar(k), 1)
_keepl(l, i, acc) = i > words(l) ? acc : \
    _keepl(l, i + 1, has_pv(lpart(word(l, i)), lvar(word(l, i))) ? acc.(strlen(acc) ? " " : "").word(l, i) : acc)
shown = _keepl(lines, 1, "")
if (words(shown) == 0) {
    exit error sprintf("%s: no rows to draw in '%s' (parts a and b)", me, datafile)
}

@LOGX_N
if (bw_logy) { @LOGY_GBPS } else { @LINY_GBPS }
set title "Lab 02: exclusive scans, bandwidth\n".subtitle("8 bytes counted per element")

# The roof, as in lab01_bw.gp.
roof = ""
if (has_gpu) {
    set label 1 sprintf("device copy (roof) %.0f GB/s", copy_gbps) \
        at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}

# Each GPU part's own roof in the rows' GB/s: the GB/s at which the part's
# algorithm would move its bytes (alg_bytes) at the copy's speed, the copy
# times the bytes counted (gbps * time) over alg_bytes; gbps * 100 / pct_alg
# says the same, but pct_alg's two decimals are coarse at small n.
algroofs = ""
if (has_gpu && has_alg) {
    do for [k in "ag bs"] {
        if (strstrt(" ".shown." ", " ".k." ") > 0) { algroofs = algroofs.(strlen(algroofs) ? " " : "").k }
    }
}
alg_gbps(p, v) = pickp(p, v, "copy_gbps") * pickp(p, v, "gbps") * pickp(p, v, "time_ms") * 1e6 / pickp(p, v, "alg_bytes")
roof_title(k) = sprintf("(%s) at its roof: %s", lpart(k), alg_words(lpart(k)))
# (a plot clause only when there is one: gnuplot warns of an empty iteration)
algplot = words(algroofs) == 0 ? "" : \
    ', for [i = 1:words(algroofs)] datafile using (pickp(lpart(word(algroofs, i)), lvar(word(algroofs, i)), "n")):' . \
    '(alg_gbps(lpart(word(algroofs, i)), lvar(word(algroofs, i)))) with lines lw 1.5 dt (6, 4) ' . \
    'lc rgb lcolor(word(algroofs, i)) title roof_title(word(algroofs, i))'

@open_output
plot for [i = 1:words(shown)] datafile \
        using (pickp(lpart(word(shown, i)), lvar(word(shown, i)), "n")): \
              (pickp(lpart(word(shown, i)), lvar(word(shown, i)), "gbps")) \
        with linespoints lw 2 dt vdash(lvar(word(shown, i))) \
        lc rgb lcolor(word(shown, i)) pt lpoint(word(shown, i)) \
        title ltitle(word(shown, i)) @algplot @roof
